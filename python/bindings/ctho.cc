/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bindings.h"

#include "ns3/ctho-solver.h"
#include "ns3/input-checks.h"
#include "ns3/llm-compute-model.h"

#include <limits>
#include <optional>
#include <pybind11/stl.h>
#include <sstream>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace ns3
{
namespace edgellm
{
namespace python
{

namespace
{

std::string
ValueRepr(const CtHoValue& v)
{
    std::ostringstream s;
    s << "CtHoValue(prefix_tokens=" << v.prefixTokens << ", prefill_delay=" << Repr(v.prefillDelay)
      << ", transfer_delay=" << Repr(v.transferDelay) << ", worst_delay=" << Repr(v.worstDelay)
      << ")";
    return s.str();
}

std::string
UePlanRepr(const CtHoUePlan& u)
{
    std::ostringstream s;
    s << "CtHoUePlan(ue=" << u.ue << ", prefill_tokens=" << u.prefillTokens
      << ", transfer_tokens=" << u.transferTokens << ", transfer_start=" << Repr(u.transferStart)
      << ", transfer_end=" << Repr(u.transferEnd) << ", deadline=" << Repr(u.deadline)
      << ", delay=" << Repr(u.delay) << ")";
    return s.str();
}

py::dict
ValueDict(const CtHoValue& v)
{
    py::dict d;
    d["prefix_tokens"] = v.prefixTokens;
    d["prefill_delay"] = v.prefillDelay;
    d["transfer_delay"] = v.transferDelay;
    d["worst_delay"] = v.worstDelay;
    return d;
}

py::dict
UePlanDict(const CtHoUePlan& u)
{
    py::dict d;
    d["ue"] = u.ue;
    d["prefill_tokens"] = u.prefillTokens;
    d["transfer_tokens"] = u.transferTokens;
    d["transfer_start"] = u.transferStart;
    d["transfer_end"] = u.transferEnd;
    d["deadline"] = u.deadline;
    d["delay"] = u.delay;
    return d;
}

/// The solver's problem from Python's arguments, with the Python names in its messages.
CtHoInput
MakeInput(const std::vector<int64_t>& contextTokens,
          const std::vector<double>& handoverTimes,
          double backhaulTokensPerSecond,
          double prefillCycle,
          double earliestPrefillStart,
          double backlogTokens,
          std::optional<int64_t> blockTokens)
{
    if (contextTokens.size() != handoverTimes.size())
    {
        ThrowInvalid("handover_times",
                     std::to_string(handoverTimes.size()) + " times",
                     "one time per context (" + std::to_string(contextTokens.size()) + ")");
    }
    CtHoInput in;
    for (std::size_t i = 0; i < contextTokens.size(); ++i)
    {
        CtHoUe ue;
        ue.contextTokens = Count("context_tokens[" + std::to_string(i) + "]", contextTokens[i]);
        ue.handoverTime = handoverTimes[i];
        in.ues.push_back(ue);
    }
    in.backhaulTokensPerSecond = backhaulTokensPerSecond;
    in.prefillCycle = prefillCycle;
    in.earliestPrefillStart = earliestPrefillStart;
    in.backlogTokens = backlogTokens;
    if (blockTokens)
    {
        if (*blockTokens < 1 || *blockTokens > std::numeric_limits<uint32_t>::max())
        {
            ThrowInvalid("block_tokens", std::to_string(*blockTokens), "an integer in [1, 2^32)");
        }
        in.blockAligned = true;
        in.blockTokens = static_cast<uint32_t>(*blockTokens);
    }
    return in;
}

} // namespace

void
BindCtHo(py::module_& m)
{
    py::class_<LlmComputeModel>(m,
                                "ComputeModel",
                                "How long compute takes on one GPU: p(L) for a prefill, and one "
                                "decode step. Build one with preset(), linear() or measured().")
        .def_static("preset",
                    &LlmComputeModel::FromPreset,
                    py::arg("name"),
                    "The named preset (one of preset_names()); ValueError for another name.")
        .def_static("preset_names", &LlmComputeModel::PresetNames)
        .def_static("default_preset_name", &LlmComputeModel::DefaultPresetName)
        .def_static(
            "linear",
            [](double a,
               double b,
               const std::string& batchMode,
               double decodeBase,
               double decodePerSequence,
               double decodePerContextToken) {
                return LlmComputeModel(
                    PrefillCurve::Linear(a, b),
                    BatchPrefillModeFromName(batchMode),
                    DecodeStepModel{decodeBase, decodePerSequence, decodePerContextToken});
            },
            py::arg("a"),
            py::arg("b"),
            py::arg("batch_mode") = "PaddedMax",
            py::arg("decode_base") = 0.0,
            py::arg("decode_per_sequence") = 0.0,
            py::arg("decode_per_context_token") = 0.0,
            "p(L) = a L + b (a in s/token, b in s); batch_mode PaddedMax or TokenCount.")
        .def_static(
            "measured",
            [](const std::vector<std::pair<int64_t, double>>& points,
               const std::string& batchMode,
               double decodeBase,
               double decodePerSequence,
               double decodePerContextToken) {
                std::vector<PrefillCurve::Point> counted;
                for (std::size_t i = 0; i < points.size(); ++i)
                {
                    counted.emplace_back(
                        Count("points[" + std::to_string(i) + "] tokens", points[i].first),
                        points[i].second);
                }
                return LlmComputeModel(
                    PrefillCurve::Measured(counted),
                    BatchPrefillModeFromName(batchMode),
                    DecodeStepModel{decodeBase, decodePerSequence, decodePerContextToken});
            },
            py::arg("points"),
            py::arg("batch_mode") = "PaddedMax",
            py::arg("decode_base") = 0.0,
            py::arg("decode_per_sequence") = 0.0,
            py::arg("decode_per_context_token") = 0.0,
            "p(L) piecewise linear through (tokens, seconds) points.")
        .def(
            "prefill_time",
            [](const LlmComputeModel& c, int64_t tokens) {
                return c.PrefillTime(Count("tokens", tokens));
            },
            py::arg("tokens"),
            "p(tokens), s.")
        .def(
            "batch_prefill_time",
            [](const LlmComputeModel& c, const std::vector<int64_t>& lengths) {
                std::vector<uint64_t> counted;
                for (std::size_t i = 0; i < lengths.size(); ++i)
                {
                    counted.push_back(Count("lengths[" + std::to_string(i) + "]", lengths[i]));
                }
                return c.BatchPrefillTime(PrefillBatch::FromLengths(counted));
            },
            py::arg("lengths"),
            "Prefill time of one batch of sequences of these lengths, s.")
        .def(
            "decode_step_time",
            [](const LlmComputeModel& c, int64_t sequences, int64_t contextTokens) {
                return c.DecodeStepTime(Count("sequences", sequences),
                                        Count("context_tokens", contextTokens));
            },
            py::arg("sequences"),
            py::arg("context_tokens"),
            "One decode step of a batch, s.")
        .def_property_readonly(
            "batch_mode",
            [](const LlmComputeModel& c) { return BatchPrefillModeName(c.GetBatchMode()); })
        .def_property_readonly(
            "is_linear",
            [](const LlmComputeModel& c) { return c.GetPrefillCurve().IsLinear(); })
        .def_property_readonly("a",
                               [](const LlmComputeModel& c) { return c.GetPrefillCurve().GetA(); })
        .def_property_readonly("b",
                               [](const LlmComputeModel& c) { return c.GetPrefillCurve().GetB(); })
        .def_property_readonly("prefill_source", &LlmComputeModel::GetPrefillSource)
        .def_property_readonly("decode_source", &LlmComputeModel::GetDecodeSource)
        .def("__repr__", [](const LlmComputeModel& c) {
            std::ostringstream s;
            s << "ComputeModel(";
            if (c.GetPrefillCurve().IsLinear())
            {
                s << "a=" << Repr(c.GetPrefillCurve().GetA())
                  << ", b=" << Repr(c.GetPrefillCurve().GetB());
            }
            else
            {
                s << "points=\"" << PrefillCurve::FormatProfile(c.GetPrefillCurve().GetPoints())
                  << "\"";
            }
            s << ", batch_mode=" << BatchPrefillModeName(c.GetBatchMode()) << ", source=\""
              << c.GetPrefillSource() << "\")";
            return s.str();
        });

    py::class_<CtHoValue>(m, "CtHoValue", "The three delays of one prefix length L, in s.")
        .def_readonly("prefix_tokens", &CtHoValue::prefixTokens, "L")
        .def_readonly("prefill_delay", &CtHoValue::prefillDelay, "D_pf(L), s")
        .def_readonly("transfer_delay", &CtHoValue::transferDelay, "D_tx*(L), s")
        .def_readonly("worst_delay", &CtHoValue::worstDelay, "V(L) = max(D_pf, D_tx*), s")
        .def("to_dict", &ValueDict)
        .def("__repr__", &ValueRepr);

    py::class_<CtHoUePlan>(m, "CtHoUePlan", "What one UE does under a plan, and when (s).")
        .def_readonly("ue", &CtHoUePlan::ue, "index into the solver's UEs (input order)")
        .def_readonly("prefill_tokens", &CtHoUePlan::prefillTokens, "min(C_i, L)")
        .def_readonly("transfer_tokens", &CtHoUePlan::transferTokens, "(C_i - L)^+")
        .def_readonly("transfer_start", &CtHoUePlan::transferStart)
        .def_readonly("transfer_end", &CtHoUePlan::transferEnd)
        .def_readonly("deadline", &CtHoUePlan::deadline, "tau_i + D_tx*(L)")
        .def_readonly("delay", &CtHoUePlan::delay, "D_i, its recovery delay after tau_i")
        .def("to_dict", &UePlanDict)
        .def("__repr__", &UePlanRepr);

    py::class_<CtHoPlan>(m, "CtHoPlan", "A plan: the delays of L and the EDF backhaul schedule.")
        .def_readonly("value", &CtHoPlan::value)
        .def_readonly("prefill_start", &CtHoPlan::prefillStart, "t_s, s")
        .def_readonly("prefill_end", &CtHoPlan::prefillEnd, "T^pf(L), s")
        .def_readonly("ues", &CtHoPlan::ues, "one per UE, in handover order")
        .def("to_dict",
             [](const CtHoPlan& p) {
                 py::dict d = ValueDict(p.value);
                 d["prefill_start"] = p.prefillStart;
                 d["prefill_end"] = p.prefillEnd;
                 py::list ues;
                 for (const auto& u : p.ues)
                 {
                     ues.append(UePlanDict(u));
                 }
                 d["ues"] = ues;
                 return d;
             })
        .def("__repr__", [](const CtHoPlan& p) {
            std::ostringstream s;
            s << "CtHoPlan(value=" << ValueRepr(p.value)
              << ", prefill_start=" << Repr(p.prefillStart)
              << ", prefill_end=" << Repr(p.prefillEnd) << ", ues=[";
            for (std::size_t i = 0; i < p.ues.size(); ++i)
            {
                s << (i > 0 ? ", " : "") << UePlanRepr(p.ues[i]);
            }
            s << "])";
            return s.str();
        });

    py::class_<CtHoSolver>(m,
                           "CtHoSolver",
                           "Exact solver of the ctHO problem: UE i, with C_i tokens of context, "
                           "hands over at tau_i; the target prefills a prefix of L tokens of "
                           "every UE in one batch while the rest crosses a backhaul of R "
                           "tokens/s.")
        .def(py::init([](const std::vector<int64_t>& contextTokens,
                         const std::vector<double>& handoverTimes,
                         double backhaulTokensPerSecond,
                         std::optional<LlmComputeModel> compute,
                         double prefillCycle,
                         double earliestPrefillStart,
                         double backlogTokens,
                         std::optional<int64_t> blockTokens) {
                 return CtHoSolver(
                     MakeInput(contextTokens,
                               handoverTimes,
                               backhaulTokensPerSecond,
                               prefillCycle,
                               earliestPrefillStart,
                               backlogTokens,
                               blockTokens),
                     compute ? *compute
                             : LlmComputeModel::FromPreset(LlmComputeModel::DefaultPresetName()));
             }),
             py::arg("context_tokens"),
             py::arg("handover_times"),
             py::arg("backhaul_tokens_per_second"),
             py::kw_only(),
             py::arg("compute") = py::none(),
             py::arg("prefill_cycle") = 0.0,
             py::arg("earliest_prefill_start") = -std::numeric_limits<double>::infinity(),
             py::arg("backlog_tokens") = 0.0,
             py::arg("block_tokens") = py::none(),
             "context_tokens: C_i (>= 1); handover_times: tau_i, s; backhaul_tokens_per_second: "
             "R; compute: a ComputeModel (default preset if None); prefill_cycle: T_c, s (0: "
             "none); earliest_prefill_start: t_min, s; backlog_tokens: B_0; block_tokens: "
             "restrict L to its multiples (and C_max) when given.")
        .def_property_readonly("prefill_start", &CtHoSolver::GetPrefillStart, "t_s, s")
        .def_property_readonly("max_context", &CtHoSolver::GetMaxContext, "C_max")
        .def_property_readonly("ue_count", &CtHoSolver::GetUeCount)
        .def(
            "prefill_delay",
            [](const CtHoSolver& s, int64_t l) {
                return s.PrefillDelay(Count("prefix_tokens", l));
            },
            py::arg("prefix_tokens"),
            "D_pf(L), s")
        .def(
            "transfer_delay",
            [](const CtHoSolver& s, int64_t l) {
                return s.TransferDelay(Count("prefix_tokens", l));
            },
            py::arg("prefix_tokens"),
            "D_tx*(L), s")
        .def(
            "evaluate",
            [](const CtHoSolver& s, int64_t l) { return s.Evaluate(Count("prefix_tokens", l)); },
            py::arg("prefix_tokens"))
        .def("solve", &CtHoSolver::Solve, "The optimum over the allowed L.")
        .def("solve_by_scan", &CtHoSolver::SolveByScan, "The optimum by scanning every L.")
        .def("tho", &CtHoSolver::Tho, "tHO: L = C_max.")
        .def("cho", &CtHoSolver::Cho, "cHO: L = 0.")
        .def(
            "plan",
            [](const CtHoSolver& s, std::optional<int64_t> l) {
                return s.MakePlan(l ? Count("prefix_tokens", *l) : s.Solve().prefixTokens);
            },
            py::arg("prefix_tokens") = py::none(),
            "The plan of L, or of the optimum L when None.");
}

} // namespace python
} // namespace edgellm
} // namespace ns3
