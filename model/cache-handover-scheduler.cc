/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cache-handover-scheduler.h"

#include "explaining-checker.h"
#include "impact-accuracy-model.h"
#include "impact-ho-scheduler.h"

#include "ns3/boolean.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CacheHandoverScheduler);

TypeId
CacheHandoverScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CacheHandoverScheduler")
            .SetParent<CtHoFamilyScheduler>()
            .SetGroupName("EdgeLlm")
            .AddConstructor<CacheHandoverScheduler>()
            .AddAttribute("RecordAccuracy",
                          "Also record ImpactHO's fraction_arrived and accuracy of each "
                          "handover, as the impact-full scheme does: a whole cache scores the "
                          "importance curve's A(1), a part of it (sent by position) the "
                          "random-order curve.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CacheHandoverScheduler::m_recordAccuracy),
                          edgellm::MakeExplainingBooleanChecker(
                              "ns3::CacheHandoverScheduler::RecordAccuracy"));
    return tid;
}

CacheHandoverScheduler::CacheHandoverScheduler() = default;

CacheHandoverScheduler::~CacheHandoverScheduler() = default;

std::string
CacheHandoverScheduler::GetSchemeName() const
{
    return SchemeNameOr("cho");
}

CtHoValue
CacheHandoverScheduler::ChoosePrefix(const CtHoSolver& solver) const
{
    return solver.Cho();
}

void
CacheHandoverScheduler::DoCompleteRecord(HandoverRecord& record) const
{
    if (!m_recordAccuracy)
    {
        return;
    }
    // Its plan (L = 0) sends the whole context in TOKEN units, by position: a part of it is
    // worth a random part, and what a stall re-prefilled counts as arrived.
    const double y = ImpactFractionArrived(record);
    record.policyValues["fraction_arrived"] = y;
    record.policyValues["accuracy"] =
        ImpactAccuracyModel(ImpactCurveOf(record, y, ImpactAccuracyParams::ImportanceOrder()))
            .Accuracy(y);
}

} // namespace ns3
