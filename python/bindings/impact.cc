/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bindings.h"

#include "ns3/handover-scheme-registry.h"
#include "ns3/impact-accuracy-model.h"
#include "ns3/impact-ho-scheduler.h"
#include "ns3/impact-slot-reference.h"
#include "ns3/impact-water-filling.h"
#include "ns3/input-checks.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include <pybind11/stl.h>
#include <sstream>
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
ParamsRepr(const ImpactAccuracyParams& p)
{
    std::ostringstream s;
    s << "AccuracyParams(full_accuracy=" << Repr(p.fullAccuracy)
      << ", steepness=" << Repr(p.steepness) << ", inflection=" << Repr(p.inflection) << ")";
    return s.str();
}

} // namespace

void
BindImpact(py::module_& m)
{
    // Checked when made, so that every AccuracyParams a Python program holds is a valid curve.
    py::class_<ImpactAccuracyParams>(m,
                                     "AccuracyParams",
                                     "ImpactHO's accuracy curve A(y) = (M/2)(1 + k(y - y0) / "
                                     "sqrt(1 + k^2 (y - y0)^2)).")
        .def(py::init([](double fullAccuracy, double steepness, double inflection) {
                 ImpactAccuracyParams p;
                 p.fullAccuracy = fullAccuracy;
                 p.steepness = steepness;
                 p.inflection = inflection;
                 p.Check();
                 return p;
             }),
             py::kw_only(),
             py::arg("full_accuracy") = ImpactAccuracyParams{}.fullAccuracy,
             py::arg("steepness") = ImpactAccuracyParams{}.steepness,
             py::arg("inflection") = ImpactAccuracyParams{}.inflection,
             "full_accuracy: M in (0, 1]; steepness: k > 0; inflection: y0 in [0, 1).")
        .def_static("importance_order", &ImpactAccuracyParams::ImportanceOrder)
        .def_static("random_order", &ImpactAccuracyParams::RandomOrder)
        .def_readonly("full_accuracy", &ImpactAccuracyParams::fullAccuracy, "M")
        .def_readonly("steepness", &ImpactAccuracyParams::steepness, "k")
        .def_readonly("inflection", &ImpactAccuracyParams::inflection, "y0")
        .def("__eq__",
             [](const ImpactAccuracyParams& a, const ImpactAccuracyParams& b) {
                 return a.fullAccuracy == b.fullAccuracy && a.steepness == b.steepness &&
                        a.inflection == b.inflection;
             })
        .def("__repr__", &ParamsRepr);

    py::class_<ImpactAccuracyModel>(m, "AccuracyModel", "The accuracy curve A(y) and its slope.")
        .def(py::init<ImpactAccuracyParams>(), py::arg("params") = ImpactAccuracyParams{})
        .def_property_readonly("params", &ImpactAccuracyModel::GetParams)
        .def("accuracy", &ImpactAccuracyModel::Accuracy, py::arg("fraction"), "A(y)")
        .def("slope", &ImpactAccuracyModel::Slope, py::arg("fraction"), "A'(y)")
        .def("curvature", &ImpactAccuracyModel::Curvature, py::arg("fraction"), "A''(y)")
        .def("peak_slope", &ImpactAccuracyModel::PeakSlope, "A'(y0) = M k / 2")
        .def("inverse_slope",
             &ImpactAccuracyModel::InverseSlope,
             py::arg("slope"),
             "The y >= y0 with A'(y) = slope (y0 for a slope >= A'(y0), inf for one <= 0).")
        .def("inverse_accuracy",
             &ImpactAccuracyModel::InverseAccuracy,
             py::arg("accuracy"),
             "The y with A(y) = accuracy (-inf for <= 0, inf for >= M).")
        .def("__repr__", [](const ImpactAccuracyModel& a) {
            return "AccuracyModel(" + ParamsRepr(a.GetParams()) + ")";
        });

    py::class_<ImpactAccuracyEnvelope>(m,
                                       "AccuracyEnvelope",
                                       "The concave envelope of A on [0, 1].")
        .def(py::init<const ImpactAccuracyModel&>(), py::arg("model"))
        .def_property_readonly("tangent_point", &ImpactAccuracyEnvelope::TangentPoint, "y_t")
        .def("value", &ImpactAccuracyEnvelope::Value, py::arg("fraction"))
        .def("slope", &ImpactAccuracyEnvelope::Slope, py::arg("fraction"))
        .def("__repr__", [](const ImpactAccuracyEnvelope& e) {
            return "AccuracyEnvelope(tangent_point=" + Repr(e.TangentPoint()) + ")";
        });

    py::class_<ImpactWaterFillingUe>(m, "WaterFillingUe", "One UE of an ImpactHO slot.")
        .def(py::init([](double cacheBits, double sentFraction, ImpactAccuracyParams accuracy) {
                 return ImpactWaterFillingUe{cacheBits, sentFraction, accuracy};
             }),
             py::arg("cache_bits"),
             py::arg("sent_fraction") = 0.0,
             py::arg("accuracy") = ImpactAccuracyParams{},
             "cache_bits: S_i > 0; sent_fraction: x_i in [0, 1]; accuracy: its curve.")
        .def_readonly("cache_bits", &ImpactWaterFillingUe::cacheBits)
        .def_readonly("sent_fraction", &ImpactWaterFillingUe::sentFraction)
        .def_readonly("accuracy", &ImpactWaterFillingUe::accuracy)
        .def("__repr__", [](const ImpactWaterFillingUe& u) {
            return "WaterFillingUe(cache_bits=" + Repr(u.cacheBits) +
                   ", sent_fraction=" + Repr(u.sentFraction) +
                   ", accuracy=" + ParamsRepr(u.accuracy) + ")";
        });

    py::class_<ImpactWaterFillingUeResult>(m, "WaterFillingUeResult", "What one UE gets.")
        .def_readonly("fraction_rate",
                      &ImpactWaterFillingUeResult::fractionRate,
                      "b_i, fraction of the cache per second")
        .def_readonly("rate_bps", &ImpactWaterFillingUeResult::rateBps, "S_i b_i, bit/s")
        .def_readonly("fraction", &ImpactWaterFillingUeResult::fraction, "y_i at the slot's end")
        .def("to_dict",
             [](const ImpactWaterFillingUeResult& r) {
                 py::dict d;
                 d["fraction_rate"] = r.fractionRate;
                 d["rate_bps"] = r.rateBps;
                 d["fraction"] = r.fraction;
                 return d;
             })
        .def("__repr__", [](const ImpactWaterFillingUeResult& r) {
            return "WaterFillingUeResult(fraction_rate=" + Repr(r.fractionRate) +
                   ", rate_bps=" + Repr(r.rateBps) + ", fraction=" + Repr(r.fraction) + ")";
        });

    py::class_<ImpactWaterFillingResult>(m, "WaterFillingResult", "The allocation of one slot.")
        .def_property_readonly(
            "mode",
            [](const ImpactWaterFillingResult& r) { return ToString(r.mode); },
            "water-filling, not-binding or equalized-bytes")
        .def_readonly("price",
                      &ImpactWaterFillingResult::lambda,
                      "lambda*, accuracy per bit/s (0 not binding, NaN equalized bytes)")
        .def_readonly("minimum_capacity_bps", &ImpactWaterFillingResult::minimumCapacityBps)
        .def_readonly("ues", &ImpactWaterFillingResult::ues, "one per UE, in input order")
        .def("__repr__", [](const ImpactWaterFillingResult& r) {
            std::ostringstream s;
            s << "WaterFillingResult(mode=\"" << ToString(r.mode) << "\", price=" << Repr(r.lambda)
              << ", minimum_capacity_bps=" << Repr(r.minimumCapacityBps) << ", ues=[";
            for (std::size_t i = 0; i < r.ues.size(); ++i)
            {
                s << (i > 0 ? ", " : "") << "(fraction=" << Repr(r.ues[i].fraction)
                  << ", rate_bps=" << Repr(r.ues[i].rateBps) << ")";
            }
            s << "])";
            return s.str();
        });

    m.def(
        "water_filling_slot",
        [](const std::vector<ImpactWaterFillingUe>& ues, double capacityBps, double slotSeconds) {
            ImpactWaterFillingInput in;
            in.ues = ues;
            in.capacityBps = capacityBps;
            in.slotSeconds = slotSeconds;
            return SolveImpactWaterFilling(in);
        },
        py::arg("ues"),
        py::arg("capacity_bps"),
        py::arg("slot_seconds"),
        "One slot of ImpactHO's weighted water-filling: ues a list of WaterFillingUe, "
        "capacity_bps B >= 0, slot_seconds Delta t > 0.");

    py::class_<ImpactSlotReferenceUe>(m, "SlotReferenceUe", "One handover of the slot reference.")
        .def(py::init(
                 [](double handoverS, double cacheBits, double prefixFraction, bool positional) {
                     return ImpactSlotReferenceUe{handoverS, cacheBits, prefixFraction, positional};
                 }),
             py::arg("handover_s"),
             py::arg("cache_bits"),
             py::arg("prefix_fraction") = 0.0,
             py::arg("positional") = false,
             "handover_s: when it starts, s >= 0; cache_bits: its transfer S_i >= 0; "
             "prefix_fraction: of the context held without it (re-prefilled), in [0, 1]; "
             "positional: sent by position, so a part is worth a random part.")
        .def_readonly("handover_s", &ImpactSlotReferenceUe::handoverS)
        .def_readonly("cache_bits", &ImpactSlotReferenceUe::cacheBits)
        .def_readonly("prefix_fraction", &ImpactSlotReferenceUe::prefixFraction)
        .def_readonly("positional", &ImpactSlotReferenceUe::positional)
        .def("__repr__", [](const ImpactSlotReferenceUe& u) {
            return "SlotReferenceUe(handover_s=" + Repr(u.handoverS) +
                   ", cache_bits=" + Repr(u.cacheBits) +
                   ", prefix_fraction=" + Repr(u.prefixFraction) +
                   ", positional=" + (u.positional ? "True" : "False") + ")";
        });

    py::class_<ImpactSlotReferenceResult>(m,
                                          "SlotReferenceResult",
                                          "Each handover's y and A(y) at its window's end.")
        .def_readonly("fractions", &ImpactSlotReferenceResult::fractions, "y_i, in input order")
        .def_readonly("accuracies", &ImpactSlotReferenceResult::accuracies, "A(y_i)")
        .def_readonly("mean_accuracy",
                      &ImpactSlotReferenceResult::meanAccuracy,
                      "their mean; NaN for no handover")
        .def_readonly("slots", &ImpactSlotReferenceResult::slots, "slots that served one")
        .def("__repr__", [](const ImpactSlotReferenceResult& r) {
            return "SlotReferenceResult(mean_accuracy=" + Repr(r.meanAccuracy) +
                   ", handovers=" + std::to_string(r.fractions.size()) +
                   ", slots=" + std::to_string(r.slots) + ")";
        });

    m.def(
        "slot_reference",
        [](const std::string& scheme,
           const std::vector<ImpactSlotReferenceUe>& ues,
           double capacityBps,
           double slotSeconds,
           double windowSeconds,
           const std::string& order,
           const std::string& window) {
            const std::string type = HandoverSchedulerTypeOf(scheme);
            if (!TypeId::LookupByName(type).IsChildOf(ImpactSlotScheduler::GetTypeId()))
            {
                ThrowInvalid("scheme",
                             "\"" + scheme + "\"",
                             "a slot scheme: impactho, impact-equal, impact-pf, impact-wta, "
                             "impact-hybrid or impact-reprefill");
            }
            if (order != "importance" && order != "random")
            {
                ThrowInvalid("order", "\"" + order + "\"", "importance or random");
            }
            Ptr<ImpactSlotScheduler> s =
                HandoverSchemeFactory(scheme).Create<ImpactSlotScheduler>();
            s->SetAttribute("Order", StringValue(order));
            ImpactSlotReferenceInput in;
            in.ues = ues;
            in.capacityBps = capacityBps;
            in.slotSeconds = slotSeconds;
            in.windowSeconds = windowSeconds;
            bool known = false;
            for (ImpactSlotWindow w : {ImpactSlotWindow::WHOLE_SLOTS,
                                       ImpactSlotWindow::TO_DEADLINE,
                                       ImpactSlotWindow::PRO_RATA})
            {
                if (ImpactSlotWindowName(w) == window)
                {
                    in.window = w;
                    known = true;
                }
            }
            if (!known)
            {
                ThrowInvalid("window",
                             "\"" + window + "\"",
                             "whole-slots, to-deadline or pro-rata");
            }
            in.accuracy = s->GetAccuracyParams();
            return RunImpactSlotReference(
                in,
                [s](const std::vector<ImpactSlotMember>& members, double b, double dt) {
                    return s->AllocateSlot(members, b, dt);
                });
        },
        py::arg("scheme"),
        py::arg("ues"),
        py::arg("capacity_bps"),
        py::arg("slot_seconds") = 0.1,
        py::arg("window_seconds") = 0.5,
        py::arg("order") = "importance",
        py::arg("window") = "whole-slots",
        "ImpactHO's slot reference: the handovers (a list of SlotReferenceUe) moved by the "
        "scheme's own allocator in slots of slot_seconds, each for the slots of its window "
        "(window: whole-slots, the paper's, from the first slot at or after it; to-deadline, "
        "the simulation's, from that slot until T_max after it; pro-rata, from its instant to "
        "T_max after it), at capacity_bps B "
        "itself, with no network.");
}

} // namespace python
} // namespace edgellm
} // namespace ns3
