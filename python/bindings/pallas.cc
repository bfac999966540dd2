/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bindings.h"

#include "ns3/pallas-window-model.h"

#include <sstream>

namespace py = pybind11;

namespace ns3
{
namespace edgellm
{
namespace python
{

void
BindPallas(py::module_& m)
{
    py::class_<PallasWindowChoice>(m, "PallasWindowChoice", "The window chosen, and its costs.")
        .def_readonly("window_s", &PallasWindowChoice::windowS, "T_w*, s")
        .def_readonly("sit_s", &PallasWindowChoice::sitS, "T_SIT(T_w*), s")
        .def_readonly("early_s", &PallasWindowChoice::earlyS, "T_early(T_w*), s")
        .def_readonly("cost", &PallasWindowChoice::cost, "J(T_w*), s")
        .def_readonly("grid_points", &PallasWindowChoice::gridPoints)
        .def("to_dict",
             [](const PallasWindowChoice& c) {
                 py::dict d;
                 d["window_s"] = c.windowS;
                 d["sit_s"] = c.sitS;
                 d["early_s"] = c.earlyS;
                 d["cost"] = c.cost;
                 d["grid_points"] = c.gridPoints;
                 return d;
             })
        .def("__repr__", [](const PallasWindowChoice& c) {
            std::ostringstream s;
            s << "PallasWindowChoice(window_s=" << Repr(c.windowS) << ", sit_s=" << Repr(c.sitS)
              << ", early_s=" << Repr(c.earlyS) << ", cost=" << Repr(c.cost)
              << ", grid_points=" << c.gridPoints << ")";
            return s.str();
        });

    py::class_<PallasWindowModel>(m,
                                  "PallasWindowModel",
                                  "Pallas's service interruption of a migration started T_w "
                                  "before the predicted handover, and its choice of T_w.")
        .def(py::init([](double radioInterruptionS,
                         double loadS,
                         int64_t prefixTokens,
                         double prefillTokensPerSecond,
                         double decodeTokensPerSecond,
                         double kvBytesPerToken,
                         double backhaulBps,
                         double alpha,
                         double gridStepS,
                         double windowLimitS,
                         double historyBytes,
                         bool streaming) {
                 PallasWindowInput in;
                 in.radioInterruptionS = radioInterruptionS;
                 in.loadS = loadS;
                 in.prefixTokens = Count("prefix_tokens (L_hist)", prefixTokens);
                 in.prefillTokensPerSecond = prefillTokensPerSecond;
                 in.decodeTokensPerSecond = decodeTokensPerSecond;
                 in.kvBytesPerToken = kvBytesPerToken;
                 in.backhaulBps = backhaulBps;
                 in.alpha = alpha;
                 in.gridStepS = gridStepS;
                 in.windowLimitS = windowLimitS;
                 in.historyBytes = historyBytes;
                 in.streaming = streaming;
                 return PallasWindowModel(in);
             }),
             py::kw_only(),
             py::arg("radio_interruption_s"),
             py::arg("load_s"),
             py::arg("prefix_tokens"),
             py::arg("prefill_tokens_per_second"),
             py::arg("decode_tokens_per_second"),
             py::arg("kv_bytes_per_token"),
             py::arg("backhaul_bps"),
             py::arg("alpha") = PallasWindowInput{}.alpha,
             py::arg("grid_step_s"),
             py::arg("window_limit_s"),
             py::arg("history_bytes") = PallasWindowInput{}.historyBytes,
             py::arg("streaming") = PallasWindowInput{}.streaming,
             "T_0, T_load (s), L_hist (tokens), r_p, r_d (tokens/s), s_KV (bytes/token), B "
             "(bit/s), alpha in [0, 1], Delta T and T_limit (s); S_0 (bytes sent ahead of the "
             "suffix) and whether the suffix streams during the window.")
        .def_readonly_static("MAX_GRID_POINTS", &PallasWindowModel::MAX_GRID_POINTS)
        .def("history_time", &PallasWindowModel::HistoryTime, "T_hist = T_load + L_hist / r_p")
        .def("increment_bytes", &PallasWindowModel::IncrementBytes, py::arg("window_s"))
        .def("residual_time", &PallasWindowModel::ResidualTime, py::arg("window_s"))
        .def("sit", &PallasWindowModel::Sit, py::arg("window_s"))
        .def("early_time", &PallasWindowModel::EarlyTime, py::arg("window_s"))
        .def("cost", &PallasWindowModel::Cost, py::arg("window_s"))
        .def(
            "regime",
            [](const PallasWindowModel& p, double w) { return ToString(p.Regime(w)); },
            py::arg("window_s"),
            "floor, prefix or stream: the term that sets T_SIT")
        .def("choose", &PallasWindowModel::Choose, "The grid search for T_w*.")
        .def("__repr__", [](const PallasWindowModel& p) {
            return "PallasWindowModel(history_time=" + Repr(p.HistoryTime()) +
                   ", window_limit_s=" + Repr(p.GetInput().windowLimitS) + ")";
        });

    m.def("pallas_window_limit",
          &PallasWindowLimit,
          py::arg("max_window_s"),
          py::arg("remaining_s"),
          "T_limit = min(T_max, T_remain), s.");
}

} // namespace python
} // namespace edgellm
} // namespace ns3
