/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/config.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/double.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-helper.h"
#include "ns3/lte-radio-defaults.h"
#include "ns3/lte-ran-stack.h"
#include "ns3/lte-rlc-um.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/pointer.h"
#include "ns3/propagation-loss-model.h"
#include "ns3/simulator.h"
#include "ns3/spectrum-channel.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cmath>
#include <functional>
#include <string>

using namespace ns3;

namespace
{

/// A stack with two cells installed, after the given attribute settings.
struct RadioBench
{
    Ptr<LteRanStack> stack;
    NetDeviceContainer cells;

    explicit RadioBench(HandoverTrigger trigger,
                        const std::function<void(Ptr<LteRanStack>)>& configure = {})
    {
        stack = CreateObject<LteRanStack>();
        if (configure)
        {
            configure(stack);
        }
        stack->SetTrigger(trigger);
        NodeContainer enbs;
        enbs.Create(2);
        MobilityHelper mobility;
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
        mobility.Install(enbs);
        cells = stack->InstallCells(enbs);
    }

    /// \return cell i's A3 hysteresis, dB
    double Hysteresis(uint32_t i) const
    {
        DoubleValue v;
        Algorithm(i)->GetAttribute("Hysteresis", v);
        return v.Get();
    }

    /// \return cell i's A3 time to trigger
    Time TimeToTrigger(uint32_t i) const
    {
        TimeValue v;
        Algorithm(i)->GetAttribute("TimeToTrigger", v);
        return v.Get();
    }

    /// \return cell i's handover algorithm
    Ptr<Object> Algorithm(uint32_t i) const
    {
        PointerValue algorithm;
        cells.Get(i)->GetAttribute("LteHandoverAlgorithm", algorithm);
        return algorithm.Get<Object>();
    }
};

/// \return the t-Reordering a new RLC UM entity gets
Time
NewRlcReordering()
{
    TimeValue t;
    CreateObject<LteRlcUm>()->GetAttribute("ReorderingTimer", t);
    return t.Get();
}

/// A test case that leaves the simulator and the defaults clean.
class RadioTestCase : public TestCase
{
  public:
    explicit RadioTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  private:
    void DoTeardown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

/**
 * \ingroup edge-llm-tests
 * \brief The stack's radio defaults reach ns-3's objects: an RLC UM entity made after the
 * first cell has the stack's t-Reordering, and every A3 algorithm the preset's hysteresis and
 * time to trigger; the ns3 preset gives ns-3's own values.
 */
class LteRadioDefaultsReachNs3TestCase : public RadioTestCase
{
  public:
    LteRadioDefaultsReachNs3TestCase()
        : RadioTestCase("LTE radio defaults reach the RLC and the A3 algorithm")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(NewRlcReordering(), MilliSeconds(100), "ns-3's own, before");
        {
            RadioBench b(HandoverTrigger::A3);
            NS_TEST_ASSERT_MSG_EQ(NewRlcReordering(), MilliSeconds(30), "the stack's 30 ms");
            for (uint32_t i = 0; i < 2; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(b.Hysteresis(i), 2.0, "responsive");
                NS_TEST_ASSERT_MSG_EQ(b.TimeToTrigger(i), MilliSeconds(40), "responsive");
            }
        }
        Simulator::Destroy(); // each stack's core takes the same addresses
        RadioBench ns3(HandoverTrigger::A3, [](Ptr<LteRanStack> s) {
            s->SetAttribute("A3Preset", StringValue("ns3"));
            s->SetAttribute("RlcUmReorderingTimer", TimeValue(MilliSeconds(55)));
        });
        NS_TEST_ASSERT_MSG_EQ(ns3.Hysteresis(0), 3.0, "ns-3's 3 dB");
        NS_TEST_ASSERT_MSG_EQ(ns3.TimeToTrigger(0), MilliSeconds(256), "ns-3's 256 ms");
        NS_TEST_ASSERT_MSG_EQ(NewRlcReordering(),
                              MilliSeconds(55),
                              "a second stack sets its own value: the first one's is not a "
                              "user's choice");
        Simulator::Destroy();
        RadioBench custom(HandoverTrigger::A3, [](Ptr<LteRanStack> s) {
            s->SetAttribute("A3Preset", StringValue("custom"));
            s->SetAttribute("A3Hysteresis", DoubleValue(4.5));
            s->SetAttribute("A3TimeToTrigger", TimeValue(MilliSeconds(320)));
        });
        NS_TEST_ASSERT_MSG_EQ(custom.Hysteresis(1), 4.5, "custom");
        NS_TEST_ASSERT_MSG_EQ(custom.TimeToTrigger(1), MilliSeconds(320), "custom");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief What the user set is kept: ns-3's own attribute on the command line (a global
 * default) wins over the stack's setting, and so does the helper's handover-algorithm
 * attribute set after SetTrigger.
 */
class LteRadioDefaultsKeepTheUsersTestCase : public RadioTestCase
{
  public:
    LteRadioDefaultsKeepTheUsersTestCase()
        : RadioTestCase("LTE radio defaults keep what the user set on ns-3's attributes")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::LteRlcUm::ReorderingTimer", TimeValue(MilliSeconds(70)));
        Config::SetDefault("ns3::A3RsrpHandoverAlgorithm::Hysteresis", DoubleValue(6.0));
        NS_TEST_ASSERT_MSG_EQ(IsNs3DefaultChanged("ns3::LteRlcUm", "ReorderingTimer"),
                              true,
                              "a user's default is seen");
        RadioBench b(HandoverTrigger::A3);
        NS_TEST_ASSERT_MSG_EQ(NewRlcReordering(), MilliSeconds(70), "the user's t-Reordering");
        NS_TEST_ASSERT_MSG_EQ(b.Hysteresis(0), 6.0, "the user's");
        NS_TEST_ASSERT_MSG_EQ(b.TimeToTrigger(0), MilliSeconds(40), "the preset's");

        Config::Reset();
        Simulator::Destroy();
        Ptr<LteRanStack> stack = CreateObject<LteRanStack>();
        stack->SetTrigger(HandoverTrigger::A3);
        stack->GetLteHelper()->SetHandoverAlgorithmAttribute("TimeToTrigger",
                                                             TimeValue(MilliSeconds(480)));
        NodeContainer enbs;
        enbs.Create(1);
        MobilityHelper mobility;
        mobility.Install(enbs);
        NetDeviceContainer cells = stack->InstallCells(enbs);
        PointerValue algorithm;
        cells.Get(0)->GetAttribute("LteHandoverAlgorithm", algorithm);
        TimeValue ttt;
        algorithm.Get<Object>()->GetAttribute("TimeToTrigger", ttt);
        NS_TEST_ASSERT_MSG_EQ(ttt.Get(), MilliSeconds(480), "set after SetTrigger: the user's");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief PathlossModel log-distance is 3GPP TR 36.814's macro loss, 128.1 + 37.6 log10(R/km)
 * dB, on the downlink channel: 128.1 dB at 1 km, 128.1 - 37.6 log10(1/0.3) = 108.4 dB at 300 m.
 */
class LteLogDistancePathlossTestCase : public RadioTestCase
{
  public:
    LteLogDistancePathlossTestCase()
        : RadioTestCase("LTE log-distance path loss is TR 36.814's macro loss")
    {
    }

  private:
    void DoRun() override
    {
        RadioBench b(HandoverTrigger::NONE, [](Ptr<LteRanStack> s) {
            s->SetAttribute("PathlossModel", StringValue("log-distance"));
        });
        Ptr<PropagationLossModel> loss =
            b.stack->GetLteHelper()->GetDownlinkSpectrumChannel()->GetPropagationLossModel();
        NS_TEST_ASSERT_MSG_NE(loss, nullptr, "a loss model on the channel");
        if (!loss)
        {
            return;
        }
        Ptr<ConstantPositionMobilityModel> a = CreateObject<ConstantPositionMobilityModel>();
        Ptr<ConstantPositionMobilityModel> c = CreateObject<ConstantPositionMobilityModel>();
        a->SetPosition(Vector(0, 0, 0));
        for (const double km : {0.3, 1.0, 2.5})
        {
            c->SetPosition(Vector(km * 1000, 0, 0));
            const double expected = 128.1 + 37.6 * std::log10(km);
            NS_TEST_ASSERT_MSG_EQ_TOL(-loss->CalcRxPower(0.0, a, c), expected, 1e-6, km << " km");
        }
        Simulator::Destroy();
        RadioBench friis(HandoverTrigger::NONE);
        Ptr<PropagationLossModel> free =
            friis.stack->GetLteHelper()->GetDownlinkSpectrumChannel()->GetPropagationLossModel();
        NS_TEST_ASSERT_MSG_EQ(free->GetInstanceTypeId().GetName(),
                              "ns3::FriisPropagationLossModel",
                              "friis by default");
    }
};

/**
 * \ingroup edge-llm-tests
 * \brief The LTE stack's radio defaults.
 */
class LteRadioDefaultsTestSuite : public TestSuite
{
  public:
    LteRadioDefaultsTestSuite()
        : TestSuite("edge-llm-lte-radio", TestSuite::Type::UNIT)
    {
        AddTestCase(new LteRadioDefaultsReachNs3TestCase);
        AddTestCase(new LteRadioDefaultsKeepTheUsersTestCase);
        AddTestCase(new LteLogDistancePathlossTestCase);
    }
};

/// The suite's instance.
static LteRadioDefaultsTestSuite g_lteRadioDefaultsTestSuite;
