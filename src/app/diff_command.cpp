// `rigview diff A B`: what changed between two versions of a rig (check/rig_diff), as short
// text sections or JSON; exit 0 when nothing differs beyond --tolerance, 1 when something does.
#include <cmath>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/check_formats.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "check/rig_diff.h"
#include "util/json_out.h"

namespace rig {

namespace {

using cmd::fmt;
using cmd::term;

// A quoted name, terminal-safe ('' for an unnamed one).
std::string q(const std::string& s) { return "'" + term(s) + "'"; }

void printText(const RigDiff& d, const std::string& pathA, const std::string& pathB) {
    std::ostream& out = std::cout;
    out << "diff " << term(pathA) << " -> " << term(pathB) << " (tolerance " << fmt(d.toleranceMm, "%g") << " mm, "
        << fmt(d.toleranceDeg, "%g") << " deg, weight " << fmt(d.weightTolerance, "%g") << ")\n";
    // The units each file was read in, when they differ (lengths are compared in metres).
    const Placement& pl = d.placement;
    if (std::abs(pl.metresPerUnitA - pl.metresPerUnitB) > 1e-12 * std::max(pl.metresPerUnitA, pl.metresPerUnitB)) {
        out << "units: A " << fmt(pl.metresPerUnitA, "%g") << " m per unit, B " << fmt(pl.metresPerUnitB, "%g")
            << " m per unit (compared in metres)\n";
    }
    if (!d.differs()) {
        out << "no differences\n";
        return;
    }
    if (pl.moved) {
        out << "placement: B is A";
        const double t = std::sqrt(pl.translationMm[0] * pl.translationMm[0] + pl.translationMm[1] * pl.translationMm[1] +
                                   pl.translationMm[2] * pl.translationMm[2]);
        if (pl.rotationDeg > d.toleranceDeg) {
            out << " turned " << fmt(pl.rotationDeg, "%.3f") << " deg about (" << fmt(pl.axis[0], "%.3f") << ", "
                << fmt(pl.axis[1], "%.3f") << ", " << fmt(pl.axis[2], "%.3f") << "),";
        }
        if (t > d.toleranceMm) {
            out << " moved " << fmt(t, "%.3f") << " mm (" << fmt(pl.translationMm[0], "%.3f") << ", " << fmt(pl.translationMm[1], "%.3f")
                << ", " << fmt(pl.translationMm[2], "%.3f") << "),";
        }
        if (std::abs(pl.scale - 1.0) > 1e-6) out << " scaled " << fmt(pl.scale, "%.6g") << " (units?),";
        out << " matching " << pl.jointsMatched << " of " << pl.jointsCompared
            << " joints; what follows is compared with A placed so\n";
        if (!d.differs(false)) out << "nothing else differs\n";
    }
    const bool joints = !d.jointsAdded.empty() || !d.jointsRemoved.empty() || !d.jointsRenamed.empty() ||
                        !d.jointsReparented.empty() || !d.bindPoseMoved.empty();
    if (joints) {
        out << "joints:\n";
        for (const std::string& n : d.jointsAdded) out << "  added      " << q(n) << "\n";
        for (const std::string& n : d.jointsRemoved) out << "  removed    " << q(n) << "\n";
        for (const JointRename& r : d.jointsRenamed) out << "  renamed    " << q(r.from) << " -> " << q(r.to) << "\n";
        for (const JointReparent& r : d.jointsReparented) {
            out << "  reparented " << q(r.joint) << ": parent " << (r.parentA.empty() ? "none" : q(r.parentA)) << " -> "
                << (r.parentB.empty() ? "none" : q(r.parentB)) << "\n";
        }
        for (const BindPoseChange& c : d.bindPoseMoved) {
            out << "  bind pose  " << q(c.joint) << ": moved " << fmt(c.translationMm, "%.3f") << " mm, turned "
                << fmt(c.rotationDeg, "%.3f") << " deg\n";
        }
    }
    if (!d.meshesAdded.empty() || !d.meshesRemoved.empty() || !d.meshesChanged.empty()) {
        out << "meshes:\n";
        for (const std::string& n : d.meshesAdded) out << "  added      " << q(n) << "\n";
        for (const std::string& n : d.meshesRemoved) out << "  removed    " << q(n) << "\n";
        for (const MeshChange& m : d.meshesChanged) {
            out << "  changed    " << q(m.mesh) << ": " << m.verticesA << " -> " << m.verticesB << " vertices";
            if (m.unmatchedA || m.unmatchedB) {
                out << ", " << m.unmatchedA << " of A and " << m.unmatchedB << " of B with no vertex at their bind position in the other";
            }
            out << "\n";
        }
    }
    if (!d.weightsChanged.empty()) {
        out << "weights:\n";
        for (const MeshWeightChanges& w : d.weightsChanged) {
            out << "  " << q(w.mesh) << ": " << w.count << " vertices changed, largest weight change "
                << fmt(w.maxDelta, "%.4f");
            if (!w.vertices.empty()) out << " (vertex " << w.vertices.front().vertexB << " of B)";
            out << "\n";
            // The joints that gained or lost weight, the most vertices first (at most 8 named).
            for (const auto* list : {&w.gained, &w.lost}) {
                if (list->empty()) continue;
                out << "    " << (list == &w.gained ? "gained" : "lost  ") << ":";
                for (size_t k = 0; k < list->size() && k < 8; ++k) {
                    const JointWeightChange& c = (*list)[k];
                    out << (k ? ", " : " ") << q(c.joint) << " (" << c.vertices << " vertices, up to " << fmt(c.maxDelta, "%.4f") << ")";
                }
                if (list->size() > 8) out << " and " << list->size() - 8 << " more";
                out << "\n";
            }
        }
    }
    if (!d.materialsChanged.empty()) {
        out << "materials:\n";
        for (const MaterialChange& m : d.materialsChanged) {
            out << "  " << q(m.material) << " (mesh " << q(m.mesh) << "):";
            for (size_t k = 0; k < m.fields.size(); ++k) out << (k ? "; " : " ") << term(m.fields[k]);
            out << "\n";
        }
    }
    if (!d.clipsAdded.empty() || !d.clipsRemoved.empty() || !d.clipsRenamed.empty() || !d.clipsRetimed.empty() ||
        !d.clipMotion.empty()) {
        out << "clips:\n";
        for (const std::string& n : d.clipsAdded) out << "  added      " << q(n) << "\n";
        for (const std::string& n : d.clipsRemoved) out << "  removed    " << q(n) << "\n";
        for (const ClipRename& r : d.clipsRenamed) out << "  renamed    " << q(r.from) << " -> " << q(r.to) << " (the same motion)\n";
        for (const ClipRetime& r : d.clipsRetimed) {
            out << "  retimed    " << q(r.clip) << ": " << fmt(r.startA, "%g") << ".." << fmt(r.durationA, "%g") << " s, "
                << r.keysA << " key times -> " << fmt(r.startB, "%g") << ".." << fmt(r.durationB, "%g") << " s, " << r.keysB
                << " key times" << (r.keyTimesChanged ? " (key times changed)" : "");
            const double shift = r.startB - r.startA;
            if (std::abs(shift) > 1e-5 && std::abs((r.durationB - r.startB) - (r.durationA - r.startA)) <= 1e-5) {
                out << " (shifted " << fmt(shift, "%+g") << " s, the same length)";
            }
            out << "\n";
        }
        for (const ClipMotionChange& m : d.clipMotion) {
            out << "  motion     " << q(m.clip) << ": " << (m.mesh.empty() ? "joints" : "skinned mesh") << " up to "
                << fmt(m.maxMm, "%.3f") << " mm apart at " << fmt(m.time, "%g") << " s, ";
            if (m.mesh.empty()) {
                out << "joint " << q(m.joint);
            } else {
                out << "mesh " << q(m.mesh) << " vertex " << m.vertex << " (joint " << q(m.joint) << ")";
            }
            out << ", " << m.samples << " times compared\n";
        }
    }
}

}  // namespace

int runDiff(const DiffCommandOptions& o) {
    if (!std::isfinite(o.toleranceMm) || o.toleranceMm < 0.0) {
        cmd::printError("--tolerance " + fmt(o.toleranceMm, "%g") + ": must be a finite number of millimetres, 0 or more");
        return exitcode::kUsage;
    }
    Model a, b;
    if (!cmd::load(o.modelA, o.anims, o.import, a)) return exitcode::kBadInput;
    if (!cmd::load(o.modelB, o.anims, o.import, b)) return exitcode::kBadInput;
    DiffOptions options;
    options.toleranceMm = o.toleranceMm;
    options.metresPerUnitA = cmd::metresPerModelUnit(a);
    options.metresPerUnitB = cmd::metresPerModelUnit(b);
    const RigDiff d = diffModels(a, b, options);
    if (o.json) {
        jsonout::Stats st;
        std::cout << jsonout::dump(diffDocumentJson(d, o.modelA, o.modelB), 2, st) << "\n";
        cmd::warnNonFinite("diff --json", st.nonFinite);
    } else {
        printText(d, o.modelA, o.modelB);
    }
    return d.differs() ? exitcode::kCheckFailed : exitcode::kOk;
}

}  // namespace rig
