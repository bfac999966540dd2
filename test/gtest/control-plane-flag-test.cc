/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// --controlPlane and --policyAt: each value refused by name, --policyAt without a network
// control plane refused, an attribute given beside its flag refused, and the coordinator's
// defaults (and, for the controller, the per-pair links' controller node) set only for a
// network control plane.

#include "program-args.h"

#include "ns3/control-plane-flag.h"
#include "ns3/core-module.h"
#include "ns3/handover-coordinator.h"
#include "ns3/per-pair-backhaul-topology.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ns3;
using testing::HasSubstr;

namespace
{

/// Parse a command line with the flags and apply them. \param args the arguments
/// \param [out] flags the flags \return Apply's refusal, or ""
std::string
Apply(std::vector<std::string> args, ControlPlaneFlags& flags)
{
    CommandLine cmd;
    flags.AddTo(cmd);
    edgellm::test::ProgramArgs program(std::move(args));
    cmd.Parse(program.Argc(), program.Argv());
    return flags.Apply(program.Argc(), program.Argv());
}

/// The coordinator's default of an attribute, as text.
std::string
DefaultOf(const std::string& name)
{
    Ptr<HandoverCoordinator> c = CreateObject<HandoverCoordinator>();
    StringValue v;
    EXPECT_TRUE(c->GetAttributeFailSafe(name, v));
    return v.Get();
}

class ControlPlaneFlagTest : public testing::Test
{
  protected:
    void TearDown() override
    {
        Config::Reset();
    }
};

TEST_F(ControlPlaneFlagTest, RefusesEachBadValueByName)
{
    ControlPlaneFlags a;
    EXPECT_EQ(Apply({"--controlPlane=Network"}, a),
              "--controlPlane = Network is invalid; allowed: ideal or network");
    ControlPlaneFlags b;
    EXPECT_EQ(Apply({"--controlPlane=network", "--policyAt=Controller"}, b),
              "--policyAt = Controller is invalid; allowed: source, target or controller");
}

TEST_F(ControlPlaneFlagTest, TheControllerGivesPerPairLinksAControllerNode)
{
    ControlPlaneFlags at;
    EXPECT_EQ(Apply({"--controlPlane=network", "--policyAt=controller"}, at), "");
    EXPECT_EQ(DefaultOf("PolicyAt"), "controller");
    EXPECT_EQ(at.Describe(), "control plane network (policy at the controller)");
    BooleanValue made;
    CreateObject<PerPairBackhaulTopology>()->GetAttribute("Controller", made);
    EXPECT_TRUE(made.Get());
    // A cell's placement leaves the per-pair links alone.
    Config::Reset();
    ControlPlaneFlags cell;
    EXPECT_EQ(Apply({"--controlPlane=network", "--policyAt=target"}, cell), "");
    CreateObject<PerPairBackhaulTopology>()->GetAttribute("Controller", made);
    EXPECT_FALSE(made.Get());
}

TEST_F(ControlPlaneFlagTest, AProgramThatNeedsTheControllerDefaultsToItAndRefusesTheCells)
{
    ControlPlaneFlags byDefault;
    byDefault.RequireController("one allocator");
    EXPECT_EQ(Apply({"--controlPlane=network"}, byDefault), "");
    EXPECT_EQ(DefaultOf("PolicyAt"), "controller");
    for (const std::string cell : {"source", "target"})
    {
        ControlPlaneFlags f;
        f.RequireController("one allocator");
        EXPECT_EQ(Apply({"--controlPlane=network", "--policyAt=" + cell}, f),
                  "--policyAt = " + cell + " is invalid; allowed: controller (one allocator)");
    }
    // An ideal plane leaves the coordinator's default alone.
    Config::Reset();
    ControlPlaneFlags ideal;
    ideal.RequireController("one allocator");
    EXPECT_EQ(Apply({}, ideal), "");
    EXPECT_EQ(DefaultOf("PolicyAt"), "source");
}

TEST_F(ControlPlaneFlagTest, RefusesAPlacementWithoutANetwork)
{
    ControlPlaneFlags f;
    EXPECT_THAT(Apply({"--policyAt=target"}, f),
                HasSubstr("--policyAt needs --controlPlane=network"));
}

TEST_F(ControlPlaneFlagTest, RefusesTheAttributeBesideItsFlag)
{
    ControlPlaneFlags f;
    EXPECT_THAT(Apply({"--controlPlane=network", "--ns3::HandoverCoordinator::PolicyAt=target"}, f),
                HasSubstr("ns3::HandoverCoordinator::PolicyAt"));
}

TEST_F(ControlPlaneFlagTest, SetsTheCoordinatorsDefaultsForANetworkOnly)
{
    ControlPlaneFlags ideal;
    EXPECT_EQ(Apply({}, ideal), "");
    EXPECT_EQ(DefaultOf("ControlPlane"), "ideal");
    EXPECT_EQ(ideal.Describe(), "control plane ideal");
    ControlPlaneFlags network;
    EXPECT_EQ(Apply({"--controlPlane=network", "--policyAt=target"}, network), "");
    EXPECT_EQ(DefaultOf("ControlPlane"), "network");
    EXPECT_EQ(DefaultOf("PolicyAt"), "target");
    EXPECT_EQ(network.Describe(), "control plane network (policy at the target)");
}

} // namespace
