/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The fault flags: each invalid value is refused by its flag's name and range, the edges that
// are valid (0 loss, 0 start) are taken, and the text of each flag reaches its field.

#include "program-args.h"

#include "ns3/command-line.h"
#include "ns3/fault-config.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Parse the flags as an example does, and read them.
std::string
ReadFlags(std::vector<std::string> args, FaultConfig& config)
{
    FaultFlags flags;
    CommandLine cmd;
    flags.AddTo(cmd);
    edgellm::test::ProgramArgs program(std::move(args));
    cmd.Parse(program.Argc(), program.Argv());
    return flags.Read(config);
}

TEST(FaultFlags, DefaultsAreValidAndFaultFree)
{
    FaultConfig c;
    EXPECT_EQ(ReadFlags({}, c), "");
    EXPECT_EQ(c.backhaulLoss, 0);
    EXPECT_TRUE(c.outageAfter.IsStrictlyNegative());
    EXPECT_EQ(c.crossTraffic, "none");
    EXPECT_EQ(c.stallPolicy, "wait");
    EXPECT_EQ(c.gpuLoad, 1);
}

TEST(FaultFlags, EachFlagReachesItsField)
{
    FaultConfig c;
    EXPECT_EQ(ReadFlags({"--backhaulLoss=0.25",
                         "--outageAfter=0",
                         "--outageFor=750ms",
                         "--crossTraffic=onoff",
                         "--crossTrafficRate=300Mbps",
                         "--crossTrafficStart=0",
                         "--crossTrafficFor=2s",
                         "--stallPolicy=reprefill",
                         "--stallTimeout=50ms",
                         "--gpuLoad=2.5"},
                        c),
              "");
    EXPECT_EQ(c.backhaulLoss, 0.25);
    EXPECT_EQ(c.outageAfter, Seconds(0)); // 0: at the first commit itself
    EXPECT_EQ(c.outageFor, MilliSeconds(750));
    EXPECT_EQ(c.crossTraffic, "onoff");
    EXPECT_EQ(c.crossTrafficRate, DataRate("300Mbps"));
    EXPECT_EQ(c.crossTrafficStart, Seconds(0));
    EXPECT_EQ(c.crossTrafficFor, Seconds(2));
    EXPECT_EQ(c.stallPolicy, "reprefill");
    EXPECT_EQ(c.stallTimeout, MilliSeconds(50));
    EXPECT_EQ(c.gpuLoad, 2.5);
}

struct Invalid
{
    std::string arg;     // the flag as given
    std::string flag;    // the name the message must start with
    std::string allowed; // what the message must say is allowed
};

TEST(FaultFlags, EachInvalidValueIsRefusedByName)
{
    const std::vector<Invalid> cases = {
        {"--backhaulLoss=1", "--backhaulLoss", "[0, 1)"},
        {"--backhaulLoss=-0.1", "--backhaulLoss", "[0, 1)"},
        {"--backhaulLoss=lots", "--backhaulLoss", "[0, 1)"},
        {"--backhaulLoss=nan", "--backhaulLoss", "[0, 1)"},
        {"--outageAfter=-1s", "--outageAfter", ">= 0"},
        {"--outageAfter=soon", "--outageAfter", ">= 0"},
        {"--outageFor=0", "--outageFor", "> 0"},
        {"--crossTraffic=udp", "--crossTraffic", "none, bulk or onoff"},
        {"--crossTrafficRate=0bps", "--crossTrafficRate", "> 0"},
        {"--crossTrafficStart=-2s", "--crossTrafficStart", ">= 0"},
        {"--crossTrafficFor=0", "--crossTrafficFor", "> 0"},
        {"--stallPolicy=drop", "--stallPolicy", "wait or reprefill"},
        {"--stallTimeout=0", "--stallTimeout", "> 0"},
        {"--gpuLoad=0", "--gpuLoad", "(0, 1000]"},
        {"--gpuLoad=1001", "--gpuLoad", "(0, 1000]"},
        {"--gpuLoad=inf", "--gpuLoad", "(0, 1000]"},
    };
    for (const Invalid& i : cases)
    {
        FaultConfig c;
        const std::string error = ReadFlags({i.arg}, c);
        EXPECT_EQ(error.rfind(i.flag + " = ", 0), 0u) << i.arg << ": " << error;
        EXPECT_NE(error.find(i.allowed), std::string::npos) << i.arg << ": " << error;
    }
}

} // namespace
