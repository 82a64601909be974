// rigview.load() and the Model it returns: the model's arrays as read-only NumPy views of its
// memory, and its poses (pose, world, palette, sample) through the code `rigview pose` runs
// (an Animator evaluated at the CLI's clip time, app/pose_json's posedMeshPositions).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "anim/runtime/pose.h"
#include "app/command_util.h"
#include "app/pose_json.h"
#include "bindings.h"

namespace rigpy {

namespace {

using rig::Animator;
using rig::Model;

// A read-only array over `data`, owned by `base` (the Python object keeping the memory alive).
template <typename T>
py::array view(const T* data, std::vector<py::ssize_t> shape, std::vector<py::ssize_t> strides, py::handle base) {
    py::array a(py::dtype::of<T>(), std::move(shape), std::move(strides), data, base);
    py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return a;
}

// `count` glm::mat4 (column-major) as a (count, 4, 4) view indexed [i, row, column].
py::array matrices(const glm::mat4* m, size_t count, py::handle base) {
    const py::ssize_t f = sizeof(float);
    return view(reinterpret_cast<const float*>(m), {static_cast<py::ssize_t>(count), 4, 4}, {16 * f, f, 4 * f}, base);
}

// Matrices copied into a new (count, 4, 4) array indexed [i, row, column].
py::array_t<float> matrixCopy(const std::vector<glm::mat4>& src, const std::vector<int32_t>* pick = nullptr) {
    const size_t n = pick ? pick->size() : src.size();
    py::array_t<float> out({static_cast<py::ssize_t>(n), py::ssize_t{4}, py::ssize_t{4}});
    float* o = out.mutable_data();
    for (size_t i = 0; i < n; ++i) {
        const glm::mat4& m = src[pick ? static_cast<size_t>((*pick)[i]) : i];
        for (int r = 0; r < 4; ++r) {
            for (int c = 0; c < 4; ++c) o[16 * i + 4 * r + c] = m[c][r];
        }
    }
    return out;
}

const Model& modelOf(py::handle self) { return *self.cast<PyModel&>().model; }

// A mesh of a Model: its arrays are views of the model's memory.
struct PyMesh {
    py::object owner;  // the rigview.Model
    size_t index = 0;
    const rig::Mesh& mesh() const { return modelOf(owner).meshes[index]; }
};

// A clip's summary, as `rigview info` lists it.
struct PyClip {
    std::string name;
    double duration = 0.0, start = 0.0, sampleRate = 0.0, ticksPerSecond = 0.0;
    size_t index = 0, channels = 0, translationKeys = 0, rotationKeys = 0, scaleKeys = 0, morphTracks = 0;
};

// clip=None: the first clip (the bind pose when there is none); an int: an index; a str: a
// name or a decimal index, as --clip. bind / file_pose: those poses, the clip ignored (as
// --bind-pose and --file-pose). ValueError as the CLI's line.
int32_t resolveClip(const Model& model, const py::object& clip, bool bind, bool filePose) {
    if (bind && filePose) throw py::value_error("bind and file_pose exclude each other");
    if (bind) return rig::kBindPose;
    if (filePose) return rig::kFilePose;
    std::string key;
    if (clip.is_none()) {
        key.clear();
    } else if (py::isinstance<py::bool_>(clip)) {
        throw py::type_error("clip must be None, an index or a name, not a bool");
    } else if (PyIndex_Check(clip.ptr())) {
        const long long i = py::int_(clip).cast<long long>();
        if (i < 0 || static_cast<size_t>(i) >= model.clips.size()) {
            throw py::value_error(messageText(model.path) + ": no clip " + std::to_string(i) + " (the model has " +
                                  std::to_string(model.clips.size()) + " clips)");
        }
        return static_cast<int32_t>(i);
    } else if (py::isinstance<py::str>(clip)) {
        key = nameBytes(clip);
        if (key.empty()) throw py::value_error("clip: an empty name");
    } else {
        throw py::type_error("clip must be None, an index or a name");
    }
    rig::cmd::ErrorCapture capture;
    int32_t index = -1;
    if (!rig::cmd::resolveClip(model, key, index)) {
        throw py::value_error(capture.lines().empty() ? "unknown clip" : messageText(capture.lines().front()));
    }
    return index;
}

float clipTimeOf(const Model& model, int32_t clip, double time) {
    if (!std::isfinite(time)) throw py::value_error(messageText(model.path) + ": time must be a finite number of seconds");
    return rig::cmd::clipTime(model, clip, time);
}

size_t vertexTotal(const Model& model) {
    size_t n = 0;
    for (const rig::Mesh& m : model.meshes) n += m.vertexCount();
    return n;
}

// Every mesh's posed world positions, concatenated in mesh order, into `out`.
// skinning="linear" (the 4-bone linear blend: what `rigview pose` writes and the shader draws by
// default), "stitch" or "dualquat" (the viewer's and render's --skinning-method choices).
rig::SkinningMethod skinningMethod(const std::string& name) {
    if (name == "linear") return rig::SkinningMethod::Linear;
    if (name == "stitch") return rig::SkinningMethod::Stitch;
    if (name == "dualquat") return rig::SkinningMethod::DualQuat;
    throw py::value_error("skinning: \"" + name + "\" is not one of \"linear\", \"stitch\", \"dualquat\"");
}

// influences=4 (the default) or 8, as --influences.
int influenceCount(int n) {
    if (n != rig::kMaxInfluences && n != rig::kMostInfluences) throw py::value_error("influences: " + std::to_string(n) + " is not 4 or 8");
    return n;
}

void posedPositions(const Model& model, const Animator& anim, std::vector<glm::vec3>& a, std::vector<glm::vec3>& b,
                    float* out, rig::SkinningMethod method, int influences) {
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        rig::posedMeshPositions(model, anim, m, a, b, reinterpret_cast<glm::vec3*>(out), method, influences);
        out += 3 * model.meshes[m].vertexCount();
    }
}

py::dict unitsDict(const rig::Units& u) {
    py::dict d;
    d["file_unit"] = u.file.empty() ? py::object(py::none()) : py::object(py::str(u.file));
    d["metres_per_unit"] = u.metresPerUnit > 0.0 ? py::object(py::float_(u.metresPerUnit)) : py::object(py::none());
    d["scale_applied"] = u.scaleApplied;
    d["applied_at_root"] = u.appliedAtRoot;
    d["source"] = u.source;
    d["output"] = u.scaleApplied != 1.0 || u.metresPerUnit == 1.0 ? "metres" : "file";
    return d;
}

PyModel loadModel(const PathArg& path, const std::string& units, const std::vector<PathArg>& anims, bool isolated,
                  double timeout) {
    const rig::ImportOptions options = importOptionsFor(units);
    rig::IsolationConfig config = isolationFor(isolated, timeout);
    std::atomic<bool> cancel{false};
    config.cancel = &cancel;
    const std::string file = path.string();
    const std::vector<std::string> files = pathStrings(anims);
    rig::ImportOutcome outcome;
    runInterruptible(cancel, [&] { outcome = rig::importIsolated(file, files, options, config); });
    if (!outcome.model) raiseImportError(outcome.model.error().message, outcome.failure);
    auto model = std::make_shared<Model>(std::move(outcome.model.value()));
    std::vector<std::string> warnings;
    if (!model->stats.formatLimitation.empty()) warnings.push_back(model->path + ": " + model->stats.formatLimitation);
    {
        rig::cmd::ErrorCapture capture;
        rig::cmd::warnRefusedPaths(*model);
        warnings.insert(warnings.end(), capture.lines().begin(), capture.lines().end());
    }
    warnLines(warnings);
    return PyModel{std::move(model)};
}

}  // namespace

void bindModel(py::module_& m) {
    py::class_<PyClip>(m, "Clip", "A clip of a Model, as `rigview info` lists it (read-only).")
        .def_readonly("index", &PyClip::index, "The clip's index (the file's clip order).")
        .def_property_readonly("name", [](const PyClip& c) { return pyName(c.name); }, "The clip's name (bytes that are not UTF-8 as surrogateescape).")
        .def_readonly("duration", &PyClip::duration, "Seconds: the time of the clip's last key.")
        .def_readonly("start", &PyClip::start, "Seconds: the time of the clip's first key.")
        .def_readonly("sample_rate", &PyClip::sampleRate, "Frames per second used for stepping.")
        .def_readonly("ticks_per_second", &PyClip::ticksPerSecond, "The rate that turned the file's ticks into seconds.")
        .def_readonly("channels", &PyClip::channels, "Animated nodes (tracks).")
        .def_readonly("translation_keys", &PyClip::translationKeys, "Translation keys of all tracks.")
        .def_readonly("rotation_keys", &PyClip::rotationKeys, "Rotation keys of all tracks.")
        .def_readonly("scale_keys", &PyClip::scaleKeys, "Scale keys of all tracks.")
        .def_readonly("morph_tracks", &PyClip::morphTracks, "Meshes whose morph weights the clip animates.")
        .def_property_readonly("keys", [](const PyClip& c) { return c.translationKeys + c.rotationKeys + c.scaleKeys; },
                               "All keys: translation + rotation + scale.")
        .def("__repr__", [](const PyClip& c) {
            return messageText("<rigview.Clip " + std::to_string(c.index) + " '" + c.name + "' " + rig::cmd::fmt(c.duration, "%.3f") + " s>");
        });

    py::class_<PyMesh>(m, "Mesh",
                       "A mesh of a Model. Its arrays are read-only NumPy views of the model's memory (no copies);\n"
                       "they keep the model alive. Positions and normals are in the mesh's own space, as imported.")
        .def_property_readonly("index", [](const PyMesh& s) { return s.index; }, "The mesh's index in Model.meshes.")
        .def_property_readonly("name", [](const PyMesh& s) { return pyName(s.mesh().name); }, "The mesh's name.")
        .def_property_readonly("node", [](const PyMesh& s) { return s.mesh().node; },
                               "The skeleton node the mesh hangs from (index into Model.node_names).")
        .def_property_readonly("skinned", [](const PyMesh& s) { return s.mesh().skinned; }, "Whether a skin moves it.")
        .def_property_readonly("vertex_count", [](const PyMesh& s) { return s.mesh().vertexCount(); }, "Vertices.")
        .def_property_readonly(
            "positions",
            [](const PyMesh& s) {
                const auto& v = s.mesh().positions;
                return view(reinterpret_cast<const float*>(v.data()), {static_cast<py::ssize_t>(v.size()), 3}, {12, 4}, s.owner);
            },
            "(V, 3) float32: bind-pose positions in mesh space.")
        .def_property_readonly(
            "normals",
            [](const PyMesh& s) {
                const auto& v = s.mesh().normals;
                return view(reinterpret_cast<const float*>(v.data()), {static_cast<py::ssize_t>(v.size()), 3}, {12, 4}, s.owner);
            },
            "(V, 3) float32 unit normals in mesh space; (0, 3) when the mesh has none.")
        .def_property_readonly(
            "uvs",
            [](const PyMesh& s) {
                const auto& v = s.mesh().uvs;
                return view(reinterpret_cast<const float*>(v.data()), {static_cast<py::ssize_t>(v.size()), 2}, {8, 4}, s.owner);
            },
            "(V, 2) float32 texture coordinates; (0, 2) when none.")
        .def_property_readonly(
            "indices",
            [](const PyMesh& s) {
                const auto& v = s.mesh().indices;
                return view(v.data(), {static_cast<py::ssize_t>(v.size() / 3), 3}, {12, 4}, s.owner);
            },
            "(T, 3) uint32: the triangles' vertex indices.")
        .def_property_readonly(
            "joints",
            [](const PyMesh& s) {
                const auto& v = s.mesh().joints;
                return view(reinterpret_cast<const uint16_t*>(v.data()), {static_cast<py::ssize_t>(v.size()), 4}, {8, 2},
                            s.owner);
            },
            "(V, 4) uint16: each vertex's 4 skin slots (indices into skin_joints and inverse_binds;\n"
            "the slot len(skin_joints) is the rigid slot). (0, 4) for an unskinned mesh.")
        .def_property_readonly(
            "weights",
            [](const PyMesh& s) {
                const auto& v = s.mesh().weights;
                return view(reinterpret_cast<const float*>(v.data()), {static_cast<py::ssize_t>(v.size()), 4}, {16, 4}, s.owner);
            },
            "(V, 4) float32: the weights of those slots (summing to 1; 0 past the last influence).")
        .def_property_readonly(
            "skin_joints",
            [](const PyMesh& s) {
                const auto& v = s.mesh().skin.joints;
                return view(v.data(), {static_cast<py::ssize_t>(v.size())}, {4}, s.owner);
            },
            "(K,) int32: skeleton node of each skin slot.")
        .def_property_readonly(
            "inverse_binds",
            [](const PyMesh& s) {
                const auto& v = s.mesh().skin.inverseBind;
                return matrices(v.data(), v.size(), s.owner);
            },
            "(K, 4, 4) float32 [slot, row, column]: each slot's inverse bind (offset) matrix.")
        .def_property_readonly(
            "morph_target_names",
            [](const PyMesh& s) {
                std::vector<std::string> names;
                for (const rig::MorphTarget& t : s.mesh().morphTargets) names.push_back(t.name);
                return pyNames(names);
            },
            "The morph targets' names, in file order.")
        .def_property_readonly(
            "morph_default_weights",
            [](const PyMesh& s) {
                const auto& v = s.mesh().morphDefaultWeights;
                return view(v.data(), {static_cast<py::ssize_t>(v.size())}, {4}, s.owner);
            },
            "(M,) float32: the weights the morph targets take when no clip animates them.")
        .def(
            "morph_target",
            [](const PyMesh& s, size_t t) {
                const auto& targets = s.mesh().morphTargets;
                if (t >= targets.size()) {
                    throw py::index_error("no morph target " + std::to_string(t) + " (the mesh has " +
                                          std::to_string(targets.size()) + ")");
                }
                const auto& p = targets[t].positionDeltas;
                const auto& n = targets[t].normalDeltas;
                return py::make_tuple(
                    view(reinterpret_cast<const float*>(p.data()), {static_cast<py::ssize_t>(p.size()), 3}, {12, 4}, s.owner),
                    view(reinterpret_cast<const float*>(n.data()), {static_cast<py::ssize_t>(n.size()), 3}, {12, 4}, s.owner));
            },
            py::arg("target"),
            "(position_deltas (V, 3), normal_deltas (V, 3) or (0, 3)) of morph target `target`.")
        .def("__repr__", [](const PyMesh& s) {
            return messageText("<rigview.Mesh " + std::to_string(s.index) + " '" + s.mesh().name + "' " +
                   std::to_string(s.mesh().vertexCount()) + " vertices>");
        });

    py::class_<PyModel>(
        m, "Model",
        "An imported model (rigview.load): skeleton, meshes, clips, units. Immutable; its arrays are\n"
        "read-only NumPy views of its memory. Joints are the nodes some skin uses, in node order (all\n"
        "nodes when nothing is skinned): the `joints` of `rigview pose --json`. Matrices are\n"
        "(4, 4) float32 indexed [row, column] (m @ [x, y, z, 1]); pose --json lists them column-major.")
        .def_property_readonly("path", [](const PyModel& s) { return pyName(s.model->path); },
                               "The file it was imported from (os.fsdecode of the bytes: non-UTF-8 bytes as surrogates).")
        .def_property_readonly("units", [](const PyModel& s) { return unitsDict(s.model->units); },
                               "The file's unit and what import did with it (as `rigview info --json`'s units).")
        .def_property_readonly("node_names", [](const PyModel& s) { return pyNames(s.model->skeleton.names); },
                               "Every skeleton node's name, parents before children.")
        .def_property_readonly(
            "node_parents",
            [](py::object self) {
                const auto& v = modelOf(self).skeleton.parent;
                return view(v.data(), {static_cast<py::ssize_t>(v.size())}, {4}, self);
            },
            "(nodes,) int32: each node's parent (-1 for a root); parent[i] < i.")
        .def_property_readonly(
            "joint_nodes", [](const PyModel& s) { return py::array(py::cast(s.model->jointNodes())); },
            "(J,) int32: the skeleton node of each joint.")
        .def_property_readonly(
            "joint_names",
            [](const PyModel& s) {
                std::vector<std::string> names;
                for (int32_t j : s.model->jointNodes()) names.push_back(s.model->skeleton.names[j]);
                return pyNames(names);
            },
            "The joints' names (as `rigview pose --json` lists them).")
        .def_property_readonly(
            "joint_parents",
            [](const PyModel& s) {
                const Model& model = *s.model;
                const std::vector<int32_t> joints = model.jointNodes();
                std::vector<int32_t> jointOf(model.skeleton.size(), -1);
                for (size_t j = 0; j < joints.size(); ++j) jointOf[joints[j]] = static_cast<int32_t>(j);
                std::vector<int32_t> parents;
                for (int32_t node : joints) {
                    int32_t p = model.skeleton.parent[node];
                    while (p >= 0 && jointOf[p] < 0) p = model.skeleton.parent[p];
                    parents.push_back(p >= 0 ? jointOf[p] : -1);
                }
                return py::array(py::cast(parents));
            },
            "(J,) int32: each joint's nearest ancestor that is a joint (index into the joints), or -1.")
        .def_property_readonly(
            "bind_pose",
            [](const PyModel& s) {
                const std::vector<int32_t> joints = s.model->jointNodes();
                return matrixCopy(s.model->skeleton.bindPoseModel(), &joints);
            },
            "(J, 4, 4) float32: each joint's world matrix in the bind pose (the pose the skins were bound in).")
        .def_property_readonly(
            "inverse_binds",
            [](const PyModel& s) {
                const Model& model = *s.model;
                const std::vector<int32_t> joints = model.jointNodes();
                std::vector<glm::mat4> inv(joints.size());
                std::vector<int32_t> jointOf(model.skeleton.size(), -1);
                for (size_t j = 0; j < joints.size(); ++j) {
                    jointOf[joints[j]] = static_cast<int32_t>(j);
                    inv[j] = rig::safeAffineInverse(model.skeleton.bindPoseModel()[joints[j]]);
                }
                std::vector<uint8_t> set(joints.size(), 0);
                for (const rig::Mesh& mesh : model.meshes) {
                    if (!mesh.skinned) continue;
                    for (size_t k = 0; k < mesh.skin.joints.size(); ++k) {
                        const int32_t j = jointOf[mesh.skin.joints[k]];
                        if (j < 0 || set[j]) continue;
                        inv[j] = mesh.skin.inverseBind[k];
                        set[j] = 1;
                    }
                }
                return matrixCopy(inv);
            },
            "(J, 4, 4) float32: each joint's inverse bind matrix from the first skin that uses it (the\n"
            "inverse of its bind-pose world matrix where no skin does). Per skin: Mesh.inverse_binds.")
        .def_property_readonly(
            "meshes",
            [](py::object self) {
                py::list out;
                for (size_t i = 0; i < modelOf(self).meshes.size(); ++i) out.append(PyMesh{self, i});
                return out;
            },
            "The meshes, in file order (the order of pose()).")
        .def_property_readonly(
            "clips",
            [](const PyModel& s) {
                std::vector<PyClip> out;
                for (size_t i = 0; i < s.model->clips.size(); ++i) {
                    const rig::Clip& c = s.model->clips[i];
                    PyClip p;
                    p.index = i;
                    p.name = c.name;
                    p.duration = c.duration;
                    p.start = c.startTime;
                    p.sampleRate = c.sampleRate;
                    p.ticksPerSecond = c.ticksPerSecond;
                    p.channels = c.tracks.size();
                    for (const rig::Track& t : c.tracks) {
                        p.translationKeys += t.translation.count;
                        p.rotationKeys += t.rotation.count;
                        p.scaleKeys += t.scale.count;
                    }
                    p.morphTracks = c.morphTracks.size();
                    out.push_back(std::move(p));
                }
                return out;
            },
            "The clips, in the file's order (Clip objects).")
        .def_property_readonly("vertex_count", [](const PyModel& s) { return vertexTotal(*s.model); },
                               "All meshes' vertices together (N of pose()).")
        .def(
            "pose",
            [](const PyModel& s, const py::object& clip, double time, bool bind, bool filePose, bool perMesh,
               const std::string& skinning, int influences) -> py::object {
                const Model& model = *s.model;
                const rig::SkinningMethod method = skinningMethod(skinning);
                const int kept = influenceCount(influences);
                const int32_t c = resolveClip(model, clip, bind, filePose);
                const float t = clipTimeOf(model, c, time);
                py::array_t<float> out({static_cast<py::ssize_t>(vertexTotal(model)), py::ssize_t{3}});
                float* dst = out.mutable_data();
                {
                    py::gil_scoped_release release;
                    Animator anim(model);
                    anim.evaluate(c, t);
                    std::vector<glm::vec3> a, b;
                    posedPositions(model, anim, a, b, dst, method, kept);
                }
                if (!perMesh) return out;
                py::list meshes;
                py::ssize_t first = 0;
                for (const rig::Mesh& mesh : model.meshes) {
                    const auto n = static_cast<py::ssize_t>(mesh.vertexCount());
                    meshes.append(out[py::slice(first, first + n, 1)]);
                    first += n;
                }
                return meshes;
            },
            py::arg("clip") = py::none(), py::arg("time") = 0.0, py::arg("bind") = false, py::kw_only(),
            py::arg("file_pose") = false, py::arg("per_mesh") = false, py::arg("skinning") = "linear",
            py::arg("influences") = 4,
            "World-space vertex positions at `time` seconds of `clip`, exactly what `rigview pose --json`\n"
            "writes: (N, 3) float32, every mesh's vertices concatenated in mesh order (per_mesh=True: a\n"
            "list of (V, 3) arrays, one per mesh, in that order). clip: None (the first clip; the bind\n"
            "pose when there is none), an index or a name. time wraps past the clip's end, as --time.\n"
            "bind=True: the skins' bind pose, file_pose=True: the file's node transforms (the clip\n"
            "ignored, as --bind-pose and --file-pose). skinning: \"linear\" (the shader's 4-bone blend,\n"
            "what `rigview pose` writes), \"stitch\" or \"dualquat\" (as the viewer's skinning methods).\n"
            "influences: 4 (the 4 strongest per vertex, renormalized) or 8 (as `--influences 8`).\n"
            "The GIL is released while it computes.")
        .def(
            "world",
            [](const PyModel& s, const py::object& clip, double time, bool bind, bool filePose) {
                const Model& model = *s.model;
                const int32_t c = resolveClip(model, clip, bind, filePose);
                const float t = clipTimeOf(model, c, time);
                const std::vector<int32_t> joints = model.jointNodes();
                Animator anim(model);
                {
                    py::gil_scoped_release release;
                    anim.evaluate(c, t);
                }
                return matrixCopy(anim.world(), &joints);
            },
            py::arg("clip") = py::none(), py::arg("time") = 0.0, py::arg("bind") = false, py::kw_only(),
            py::arg("file_pose") = false,
            "(J, 4, 4) float32: each joint's world matrix at `time` of `clip` (pose --json's joints).")
        .def(
            "palette",
            [](const PyModel& s, const py::object& clip, double time, bool bind, bool filePose) {
                const Model& model = *s.model;
                const int32_t c = resolveClip(model, clip, bind, filePose);
                const float t = clipTimeOf(model, c, time);
                Animator anim(model);
                {
                    py::gil_scoped_release release;
                    anim.evaluate(c, t);
                }
                const std::vector<glm::mat4> inUse(anim.palette().begin(),
                                                   anim.palette().begin() + static_cast<std::ptrdiff_t>(anim.paletteInUse()));
                return matrixCopy(inUse);
            },
            py::arg("clip") = py::none(), py::arg("time") = 0.0, py::arg("bind") = false, py::kw_only(),
            py::arg("file_pose") = false,
            "(P, 4, 4) float32: the skinning palette the shader gets at `time` of `clip`: every distinct\n"
            "skin's palette concatenated (mesh m's starts at palette_offsets()[m] for the same pose; slot\n"
            "k of a skin is Mesh.skin_joints[k], its last entry the rigid slot). See\n"
            "docs/architecture.md, 'Palettes'.")
        .def(
            "palette_offsets",
            [](const PyModel& s, const py::object& clip, double time, bool bind, bool filePose) {
                const Model& model = *s.model;
                const int32_t c = resolveClip(model, clip, bind, filePose);
                Animator anim(model);
                anim.evaluate(c, clipTimeOf(model, c, time));
                std::vector<uint32_t> offsets;
                for (size_t i = 0; i < model.meshes.size(); ++i) offsets.push_back(anim.paletteOffset(i));
                return offsets;
            },
            py::arg("clip") = py::none(), py::arg("time") = 0.0, py::arg("bind") = false, py::kw_only(),
            py::arg("file_pose") = false,
            "Where each mesh's skin palette starts in palette()'s rows for that pose (meshes on several\n"
            "nodes bound to one skin share one palette unless the pose scales one of the nodes).")
        .def(
            "sample",
            [](const PyModel& s, const py::object& clip, py::array_t<double, py::array::c_style | py::array::forcecast> times,
               bool bind, bool filePose, const std::string& skinning, int influences) {
                const Model& model = *s.model;
                const rig::SkinningMethod method = skinningMethod(skinning);
                const int kept = influenceCount(influences);
                const int32_t c = resolveClip(model, clip, bind, filePose);
                if (times.ndim() != 1) throw py::value_error("times must be a 1-D sequence of seconds");
                std::vector<float> t(static_cast<size_t>(times.shape(0)));
                for (size_t i = 0; i < t.size(); ++i) t[i] = clipTimeOf(model, c, times.data()[i]);
                const size_t n = vertexTotal(model);
                py::array_t<float> out({static_cast<py::ssize_t>(t.size()), static_cast<py::ssize_t>(n), py::ssize_t{3}});
                float* dst = out.mutable_data();
                {
                    py::gil_scoped_release release;
                    Animator anim(model);
                    std::vector<glm::vec3> a, b;
                    for (size_t i = 0; i < t.size(); ++i) {
                        anim.evaluate(c, t[i]);
                        posedPositions(model, anim, a, b, dst + 3 * n * i, method, kept);
                    }
                }
                return out;
            },
            py::arg("clip"), py::arg("times"), py::kw_only(), py::arg("bind") = false,
            py::arg("file_pose") = false, py::arg("skinning") = "linear", py::arg("influences") = 4,
            "pose() at many times at once: (T, N, 3) float32 for T times (seconds, a 1-D sequence).\n"
            "One Animator plays them in order (sequential times cost O(1) per track). The GIL is\n"
            "released while it computes, so other Python threads run meanwhile.")
        .def("__repr__", [](const PyModel& s) {
            return messageText("<rigview.Model '" + s.model->path + "': " + std::to_string(s.model->meshes.size()) + " meshes, " +
                   std::to_string(s.model->jointNodes().size()) + " joints, " + std::to_string(s.model->clips.size()) +
                   " clips>");
        });

    m.def("load", &loadModel, py::arg("path"), py::arg("units") = "metres", py::arg("anims") = std::vector<PathArg>{},
          py::arg("isolated") = true, py::arg("timeout") = 120.0,
          "Import a model file as `rigview` does: in an isolated worker process (the rigview binary run\n"
          "as `rigview __import-worker`: time and memory limits, file access confined to the model's\n"
          "folder) unless isolated=False. units: \"metres\" (convert) or \"file\" (keep the file's\n"
          "numbers), as --units; anims: files whose clips are added, bound by joint name (--anim);\n"
          "timeout: seconds before the worker is killed (--import-timeout). Raises rigview.ImportError\n"
          "with the CLI's one-line message when the file cannot be read or its importer crashes or\n"
          "hangs. The GIL is released while it imports.");
}

}  // namespace rigpy
