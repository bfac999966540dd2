/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-predictor.h"

#include "cross-node-audit.h"
#include "explaining-checker.h"
#include "fatal-on-invalid.h"
#include "input-checks.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mobility-model.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HandoverPredictor");

NS_OBJECT_ENSURE_REGISTERED(HandoverPredictor);
NS_OBJECT_ENSURE_REGISTERED(TrajectoryHandoverPredictor);
NS_OBJECT_ENSURE_REGISTERED(MeasurementHandoverPredictor);

namespace
{

/// One degree, in radians.
constexpr double DEGREE_RAD = 3.14159265358979323846 / 180.0;

/// An explaining checker of a Time in [lo, hi], or (lo, hi] when loOpen.
Ptr<const AttributeChecker>
TimeRangeChecker(const std::string& attribute, Time lo, Time hi, bool loOpen)
{
    // From nanoseconds, since GetSeconds() of 1 us reads 9.9999999999997e-07.
    const auto seconds = [](Time t) {
        return edgellm::FormatValue(static_cast<double>(t.GetNanoSeconds()) / 1e9);
    };
    const std::string allowed = std::string("a time in ") + (loOpen ? "(" : "[") + seconds(lo) +
                                " s, " + seconds(hi) + " s]";
    return edgellm::MakeExplainingChecker(MakeTimeChecker(),
                                          attribute,
                                          allowed,
                                          [lo, hi, loOpen](const AttributeValue& v) -> std::string {
                                              const Time t = static_cast<const TimeValue&>(v).Get();
                                              if (t < lo || (loOpen && t == lo))
                                              {
                                                  return "too small";
                                              }
                                              return t > hi ? "too large" : "";
                                          });
}

/// An explaining checker of a finite double in [lo, hi], or (lo, hi] when loOpen.
Ptr<const AttributeChecker>
DoubleRangeChecker(const std::string& attribute, double lo, double hi, bool loOpen)
{
    const std::string allowed = std::string("a number in ") + (loOpen ? "(" : "[") +
                                edgellm::FormatValue(lo) + ", " + edgellm::FormatValue(hi) + "]";
    return edgellm::MakeExplainingChecker(MakeDoubleChecker<double>(),
                                          attribute,
                                          allowed,
                                          [lo, hi, loOpen](const AttributeValue& v) -> std::string {
                                              const double x =
                                                  static_cast<const DoubleValue&>(v).Get();
                                              if (!std::isfinite(x))
                                              {
                                                  return "not finite";
                                              }
                                              if (x < lo || (loOpen && x == lo))
                                              {
                                                  return "too small";
                                              }
                                              return x > hi ? "too large" : "";
                                          });
}

/// An explaining checker of an integer in [lo, hi].
Ptr<const AttributeChecker>
CountChecker(const std::string& attribute, uint32_t lo, uint32_t hi)
{
    return edgellm::MakeExplainingChecker(MakeUintegerChecker<uint32_t>(lo, hi),
                                          attribute,
                                          "an integer in [" + std::to_string(lo) + ", " +
                                              std::to_string(hi) + "]");
}

} // namespace

// --- HandoverPredictor ---------------------------------------------------------------------

TypeId
HandoverPredictor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HandoverPredictor")
            .SetParent<Object>()
            .SetGroupName("EdgeLlm")
            .AddAttribute("Hysteresis",
                          "H of the A3 rule predicted, dB, [0, 15] (3GPP TS 36.331): a neighbour "
                          "whose RSRP exceeds the serving cell's by more than H for "
                          "TimeToTrigger is handed over to. Set it to the RAN's value.",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&HandoverPredictor::m_hysteresisDb),
                          DoubleRangeChecker("ns3::HandoverPredictor::Hysteresis", 0, 15, false))
            .AddAttribute("TimeToTrigger",
                          "Time to trigger of the A3 rule predicted, [0, 5.12 s] (3GPP TS "
                          "36.331). Set it to the RAN's value.",
                          TimeValue(MilliSeconds(40)),
                          MakeTimeAccessor(&HandoverPredictor::m_timeToTrigger),
                          TimeRangeChecker("ns3::HandoverPredictor::TimeToTrigger",
                                           Seconds(0),
                                           MilliSeconds(5120),
                                           false))
            .AddAttribute(
                "Lag",
                "Added to every predicted handover time, [-10 s, 10 s]: what lies "
                "between the predictor's estimate and the RAN's trigger and the "
                "predictor does not model (L3 filtering, the report period), as "
                "calibrated on other draws. A time before now, after it, becomes now "
                "(the handover is due). The trajectory predictor's overdue times keep "
                "their start, so the lag applies to them too; the measurement "
                "predictor's are now already.",
                TimeValue(Seconds(0)),
                MakeTimeAccessor(&HandoverPredictor::m_lag),
                TimeRangeChecker("ns3::HandoverPredictor::Lag", Seconds(-10), Seconds(10), false))
            .AddAttribute("Horizon",
                          "How far ahead a handover is predicted, (0, 3600 s]; none later.",
                          TimeValue(Seconds(10)),
                          MakeTimeAccessor(&HandoverPredictor::m_horizon),
                          TimeRangeChecker("ns3::HandoverPredictor::Horizon",
                                           Seconds(0),
                                           Seconds(3600),
                                           true))
            .AddAttribute("ControlPeriod",
                          "Period of the driver started by Start(), [1 ms, 60 s]: every UE is "
                          "predicted once per period.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&HandoverPredictor::m_controlPeriod),
                          TimeRangeChecker("ns3::HandoverPredictor::ControlPeriod",
                                           MilliSeconds(1),
                                           Seconds(60),
                                           false))
            .AddTraceSource("Prediction",
                            "A prediction was made for a UE: (imsi, serving cell, prediction).",
                            MakeTraceSourceAccessor(&HandoverPredictor::m_predictionTrace),
                            "ns3::HandoverPredictor::PredictionTracedCallback");
    return tid;
}

HandoverPredictor::HandoverPredictor()
{
    NS_LOG_FUNCTION(this);
}

HandoverPredictor::~HandoverPredictor() = default;

void
HandoverPredictor::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_tick);
    m_observer = nullptr;
    m_nodes.clear();
    Object::DoDispose();
}

void
HandoverPredictor::SetObserver(Ptr<RanObserver> observer)
{
    NS_ABORT_MSG_IF(!observer, GetInstanceTypeId().GetName() << "::SetObserver: null observer");
    NS_ABORT_MSG_IF(m_observer,
                    GetInstanceTypeId().GetName()
                        << "::SetObserver: an observer was given already");
    m_observer = observer;
    DoObserve(observer);
}

Ptr<RanObserver>
HandoverPredictor::GetObserver() const
{
    return m_observer;
}

void
HandoverPredictor::SetCells(const std::map<uint16_t, Vector>& cells)
{
    m_cells = cells;
}

const std::map<uint16_t, Vector>&
HandoverPredictor::GetCells() const
{
    return m_cells;
}

void
HandoverPredictor::AddUe(uint64_t imsi, Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << imsi);
    NS_ABORT_MSG_IF(m_nodes.count(imsi) != 0,
                    GetInstanceTypeId().GetName() << "::AddUe: IMSI " << imsi << " added twice");
    DoAddUe(imsi, node);
    m_nodes[imsi] = node;
    m_ues.push_back(imsi);
}

const std::vector<uint64_t>&
HandoverPredictor::GetUes() const
{
    return m_ues;
}

bool
HandoverPredictor::HasUe(uint64_t imsi) const
{
    return m_nodes.count(imsi) != 0;
}

HandoverPrediction
HandoverPredictor::Predict(uint64_t imsi)
{
    const auto node = m_nodes.find(imsi);
    NS_ABORT_MSG_IF(node == m_nodes.end(),
                    GetInstanceTypeId().GetName()
                        << "::Predict: IMSI " << imsi << " was not given to AddUe");
    NS_ABORT_MSG_IF(!m_observer,
                    GetInstanceTypeId().GetName() << "::Predict: no observer (SetObserver)");
    const uint16_t serving = m_observer->GetServingCellId(imsi);
    if (serving == 0)
    {
        return HandoverPrediction{};
    }
    HandoverPrediction p = DoPredict(imsi, node->second, serving);
    if (p.found)
    {
        // An overdue time (the trajectory's rule began before now) becomes now only after the
        // lag, so that the lag moves the time the rule began, not the clock. The lag may be
        // negative: read from its integer nanoseconds, as ns-3's conversion to seconds shifts
        // a negative value left (undefined behaviour).
        const double lagS = static_cast<double>(m_lag.GetNanoSeconds()) * 1e-9;
        p.handoverTimeS = std::max(p.handoverTimeS + lagS, Simulator::Now().GetSeconds());
    }
    NS_LOG_LOGIC("IMSI " << imsi << " in cell " << serving << ": "
                         << (p.found ? "to " + std::to_string(p.targetCell) + " at " +
                                           std::to_string(p.handoverTimeS) + " s"
                                     : std::string("none")));
    ++m_predictions;
    // The serving cell predicts its UE's handover, from the UE's reports to it: what a
    // prediction sets off runs there.
    CrossNodeAudit::Scope here(serving);
    m_predictionTrace(imsi, serving, p);
    return p;
}

void
HandoverPredictor::Start()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_tick);
    m_tick = Simulator::ScheduleNow(&HandoverPredictor::Tick, this);
}

void
HandoverPredictor::Stop()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_tick);
}

bool
HandoverPredictor::IsRunning() const
{
    return !m_tick.IsExpired();
}

void
HandoverPredictor::Tick()
{
    m_tick = Simulator::Schedule(m_controlPeriod, &HandoverPredictor::Tick, this);
    for (uint64_t imsi : m_ues)
    {
        Predict(imsi);
    }
}

int64_t
HandoverPredictor::AssignStreams(int64_t /* stream */)
{
    return 0;
}

HandoverA3Rule
HandoverPredictor::GetRule() const
{
    return HandoverA3Rule{m_hysteresisDb, m_timeToTrigger.GetSeconds()};
}

Time
HandoverPredictor::GetHorizon() const
{
    return m_horizon;
}

Time
HandoverPredictor::GetControlPeriod() const
{
    return m_controlPeriod;
}

uint64_t
HandoverPredictor::GetPredictions() const
{
    return m_predictions;
}

void
HandoverPredictor::DoObserve(Ptr<RanObserver> /* observer */)
{
}

void
HandoverPredictor::DoAddUe(uint64_t /* imsi */, Ptr<Node> /* node */)
{
}

// --- TrajectoryHandoverPredictor -----------------------------------------------------------

TypeId
TrajectoryHandoverPredictor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrajectoryHandoverPredictor")
            .SetParent<HandoverPredictor>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<TrajectoryHandoverPredictor>()
            .AddAttribute("PathLossExponent",
                          "Log-distance exponent n the RSRP differences are computed with, "
                          "(0, 10]: 10 n log10(d_serving / d_neighbour) dB. 3.76 is the LTE "
                          "stack's log-distance model (3GPP TR 36.814), 2 its Friis model.",
                          DoubleValue(3.76),
                          MakeDoubleAccessor(&TrajectoryHandoverPredictor::m_pathLossExponent),
                          DoubleRangeChecker("ns3::TrajectoryHandoverPredictor::PathLossExponent",
                                             0,
                                             10,
                                             true))
            .AddAttribute("SampleStep",
                          "Step at which the extrapolated trajectory is sampled to bracket the "
                          "A3 entry, [1 us, 10 s]; at most 10^7 samples per Horizon. Kept at "
                          "or below TimeToTrigger, it cannot change the prediction.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&TrajectoryHandoverPredictor::m_sampleStep),
                          TimeRangeChecker("ns3::TrajectoryHandoverPredictor::SampleStep",
                                           MicroSeconds(1),
                                           Seconds(10),
                                           false))
            .AddAttribute("PositionNoise",
                          "Standard deviation of the position error on x and on y, m, [0, "
                          "100000]; drawn for each prediction.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&TrajectoryHandoverPredictor::m_positionNoiseM),
                          DoubleRangeChecker("ns3::TrajectoryHandoverPredictor::PositionNoise",
                                             0,
                                             1e5,
                                             false))
            .AddAttribute(
                "SpeedNoise",
                "Standard deviation of the speed error, m/s, [0, 1000]; drawn for "
                "each prediction.",
                DoubleValue(0.0),
                MakeDoubleAccessor(&TrajectoryHandoverPredictor::m_speedNoiseMps),
                DoubleRangeChecker("ns3::TrajectoryHandoverPredictor::SpeedNoise", 0, 1000, false))
            .AddAttribute("HeadingNoise",
                          "Standard deviation of the heading error, degrees, [0, 180]; drawn "
                          "for each prediction.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&TrajectoryHandoverPredictor::m_headingNoiseDeg),
                          DoubleRangeChecker("ns3::TrajectoryHandoverPredictor::HeadingNoise",
                                             0,
                                             180,
                                             false));
    return tid;
}

TrajectoryHandoverPredictor::TrajectoryHandoverPredictor()
    : m_normal(CreateObject<NormalRandomVariable>())
{
    m_normal->SetAttribute("Mean", DoubleValue(0.0));
    m_normal->SetAttribute("Variance", DoubleValue(1.0));
}

TrajectoryHandoverPredictor::~TrajectoryHandoverPredictor() = default;

void
TrajectoryHandoverPredictor::DoDispose()
{
    m_normal = nullptr;
    HandoverPredictor::DoDispose();
}

int64_t
TrajectoryHandoverPredictor::AssignStreams(int64_t stream)
{
    m_normal->SetStream(stream);
    return 1;
}

void
TrajectoryHandoverPredictor::DoAddUe(uint64_t imsi, Ptr<Node> node)
{
    NS_ABORT_MSG_IF(!node || !node->GetObject<MobilityModel>(),
                    "ns3::TrajectoryHandoverPredictor::AddUe: IMSI "
                        << imsi << " needs a node with a MobilityModel");
}

HandoverPrediction
TrajectoryHandoverPredictor::DoPredict(uint64_t /* imsi */, Ptr<Node> node, uint16_t servingCellId)
{
    Ptr<MobilityModel> mobility = node->GetObject<MobilityModel>();
    // Four draws every time, whatever the noise levels (common random numbers).
    const double dx = m_normal->GetValue();
    const double dy = m_normal->GetValue();
    const double dSpeed = m_normal->GetValue();
    const double dHeading = m_normal->GetValue();

    TrajectoryPredictionInput in;
    in.nowS = Simulator::Now().GetSeconds();
    in.position = mobility->GetPosition();
    in.position.x += m_positionNoiseM * dx;
    in.position.y += m_positionNoiseM * dy;
    in.velocity = mobility->GetVelocity();
    if (m_speedNoiseMps > 0.0 || m_headingNoiseDeg > 0.0)
    {
        const double speed = std::hypot(in.velocity.x, in.velocity.y) + m_speedNoiseMps * dSpeed;
        const double heading =
            std::atan2(in.velocity.y, in.velocity.x) + m_headingNoiseDeg * dHeading * DEGREE_RAD;
        in.velocity.x = speed * std::cos(heading);
        in.velocity.y = speed * std::sin(heading);
    }
    in.servingCell = servingCellId;
    in.cells = GetCells();
    in.rule = GetRule();
    in.pathLossExponent = m_pathLossExponent;
    in.horizonS = GetHorizon().GetSeconds();
    in.sampleStepS = m_sampleStep.GetSeconds();
    return edgellm::CallOrFatal("ns3::TrajectoryHandoverPredictor",
                                [&in] { return PredictByTrajectory(in); });
}

// --- MeasurementHandoverPredictor ----------------------------------------------------------

TypeId
MeasurementHandoverPredictor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MeasurementHandoverPredictor")
            .SetParent<HandoverPredictor>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<MeasurementHandoverPredictor>()
            .AddAttribute("Window",
                          "How far back from a UE's newest sample the RSRP trends are fitted, "
                          "(0, 60 s].",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&MeasurementHandoverPredictor::m_window),
                          TimeRangeChecker("ns3::MeasurementHandoverPredictor::Window",
                                           Seconds(0),
                                           Seconds(60),
                                           true))
            .AddAttribute("MinSamples",
                          "Fewest samples in the window that carry a neighbour for its trend "
                          "to count, [2, 10000]; at most MaxSamples.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&MeasurementHandoverPredictor::m_minSamples),
                          CountChecker("ns3::MeasurementHandoverPredictor::MinSamples", 2, 10000))
            .AddAttribute("MaxSamples",
                          "Most samples a UE keeps, [2, 10000]; the oldest go first.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&MeasurementHandoverPredictor::m_maxSamples),
                          CountChecker("ns3::MeasurementHandoverPredictor::MaxSamples", 2, 10000));
    return tid;
}

MeasurementHandoverPredictor::MeasurementHandoverPredictor() = default;

MeasurementHandoverPredictor::~MeasurementHandoverPredictor() = default;

void
MeasurementHandoverPredictor::DoDispose()
{
    m_history.clear();
    HandoverPredictor::DoDispose();
}

void
MeasurementHandoverPredictor::DoObserve(Ptr<RanObserver> observer)
{
    observer->TraceConnectWithoutContext(
        "MeasurementReport",
        MakeCallback(&MeasurementHandoverPredictor::OnReport, this));
}

void
MeasurementHandoverPredictor::OnReport(const RanMeasurementReport& report)
{
    if (!report.serving.hasRsrp)
    {
        return;
    }
    if (!HasUe(report.imsi))
    {
        return; // not predicted for
    }
    History& h = m_history[report.imsi];
    if (h.servingCellId != report.servingCellId)
    {
        h.samples.clear(); // differences to another serving cell
        h.servingCellId = report.servingCellId;
    }
    const double now = Simulator::Now().GetSeconds();
    if (h.samples.empty() || h.samples.back().timeS < now)
    {
        h.samples.push_back(MeasurementSample{now, report.serving.rsrpDbm, {}});
    }
    MeasurementSample& s = h.samples.back();
    s.servingRsrpDbm = report.serving.rsrpDbm;
    for (const RanCellMeasurement& n : report.neighbours)
    {
        if (n.hasRsrp && n.cellId != report.servingCellId)
        {
            s.neighbourRsrpDbm[n.cellId] = n.rsrpDbm;
        }
    }
    const double from = now - m_window.GetSeconds();
    while (h.samples.size() > m_maxSamples || h.samples.front().timeS < from)
    {
        h.samples.pop_front();
    }
}

std::vector<MeasurementSample>
MeasurementHandoverPredictor::GetSamples(uint64_t imsi) const
{
    const auto h = m_history.find(imsi);
    if (h == m_history.end())
    {
        return {};
    }
    return {h->second.samples.begin(), h->second.samples.end()};
}

HandoverPrediction
MeasurementHandoverPredictor::DoPredict(uint64_t imsi, Ptr<Node> /* node */, uint16_t servingCellId)
{
    NS_ABORT_MSG_IF(m_minSamples > m_maxSamples,
                    "ns3::MeasurementHandoverPredictor::MinSamples = "
                        << m_minSamples << " is invalid; allowed: an integer in [2, MaxSamples = "
                        << m_maxSamples << "]");
    MeasurementPredictionInput in;
    const auto h = m_history.find(imsi);
    if (h != m_history.end() && h->second.servingCellId == servingCellId)
    {
        in.samples.assign(h->second.samples.begin(), h->second.samples.end());
    }
    in.rule = GetRule();
    in.windowS = m_window.GetSeconds();
    in.minSamples = m_minSamples;
    // The horizon counts from now, the pure model's from the newest sample.
    const double now = Simulator::Now().GetSeconds();
    const double age = in.samples.empty() ? 0.0 : now - in.samples.back().timeS;
    in.horizonS = GetHorizon().GetSeconds() + age;
    HandoverPrediction p = edgellm::CallOrFatal("ns3::MeasurementHandoverPredictor",
                                                [&in] { return PredictByMeasurements(in); });
    if (p.found && p.handoverTimeS < now)
    {
        p.handoverTimeS = now; // overdue: the rule fires at the next chance
    }
    return p;
}

} // namespace ns3
