package dev.berth.io;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.artifact.Assignment;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.Require;
import dev.berth.measure.SpaceAssembler;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Operator;
import dev.berth.workload.Origin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Writes and reads the plan artifact {@code berth-plan} (contract §6) with a stable field order.
 * Berth writes version 2 (each space also says what is proved about its high-water mark), or
 * version 3 for a workload with candidate spaces (version 2 and the {@code assignment}:
 * {@link AssignmentJson}), or version 4 for a workload with operators (the {@code order} and
 * each buffer's {@code sharesWith}), and reads versions 1 to 4; a plan read from an older file is
 * written back in its version.
 */
public final class PlanJson {
    private PlanJson() {
    }

    /** The artifact as UTF-8 bytes, ending with a newline. */
    public static byte[] toBytes(Plan plan) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(plan, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static void write(Plan plan, OutputStream out) throws IOException {
        write(plan, out, true);
    }

    /**
     * The artifact; {@code lines}: the buffers after the first that need no escape written by
     * {@link BufferLines} (the same bytes: false writes every one through the generator, for the test).
     */
    static void write(Plan plan, OutputStream out, boolean lines) throws IOException {
        try (JsonGenerator g = generator(out)) {
            g.writeStartObject();
            g.writeStringField("format", Plan.FORMAT);
            g.writeNumberField("version", plan.version());
            g.writeFieldName("target");
            TargetJson.write(g, plan.target());
            g.writeStringField("workload", plan.workload());
            g.writeStringField("solver", plan.solver().id());
            g.writeFieldName("spaces");
            writeSpaces(g, plan.spaces());
            g.writeArrayFieldStart("buffers");
            BufferLines fast = lines ? new BufferLines() : null;
            boolean first = true;
            for (PlannedBuffer b : plan.buffers()) {
                if (!first && fast != null && fast.write(g, b)) {
                    continue;
                }
                first = false;
                g.writeStartObject();
                g.writeStringField("name", b.name());
                g.writeStringField("space", b.space());
                g.writeNumberField("offset", b.offset());
                g.writeNumberField("requested", b.requested());
                g.writeNumberField("reserved", b.reserved());
                g.writeNumberField("alignment", b.alignment());
                g.writeArrayFieldStart("live");
                g.writeNumber(b.live().first());
                g.writeNumber(b.live().last());
                g.writeEndArray();
                g.writeStringField("origin", b.origin().id());
                if (b.of().isPresent()) {
                    g.writeStringField("of", b.of().get());
                }
                if (b.sharesWith().isPresent()) {
                    g.writeStringField("sharesWith", b.sharesWith().get());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("descriptors");
            for (DescriptorEntry d : plan.descriptors()) {
                g.writeStartObject();
                g.writeStringField("name", d.name());
                g.writeNumberField("tile", d.tile());
                g.writeStringField("of", d.of());
                g.writeNumberField("address", d.address());
                g.writeNumberField("transferBytes", d.transferBytes());
                g.writeStringField("space", d.space());
                g.writeStringField("addressFormat", d.addressFormat());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (plan.assignment().isPresent()) {
                g.writeFieldName("assignment");
                AssignmentJson.write(g, plan.assignment().get());
            }
            if (plan.order().isPresent()) {
                g.writeFieldName("order");
                writeOrder(g, plan.order().get());
            }
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }

    /** The {@code order} array (§6 version 4, §7 {@code plan --json}): per step its operator, what it reads and writes. */
    public static void writeOrder(JsonGenerator g, List<Operator> order) throws IOException {
        g.writeStartArray();
        for (Operator op : order) {
            g.writeStartObject();
            g.writeStringField("name", op.name());
            g.writeArrayFieldStart("reads");
            for (String r : op.reads()) {
                g.writeString(r);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("writes");
            for (String w : op.writes()) {
                g.writeString(w);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** The {@code assignment} object (§6 version 3, §7 {@code plan --json}): see {@link AssignmentJson}. */
    public static void writeAssignment(JsonGenerator g, Assignment a) throws IOException {
        AssignmentJson.write(g, a);
    }

    /** The {@code spaces} object of §6, also used by {@code plan --json}. */
    public static void writeSpaces(JsonGenerator g, Map<String, SpaceMetrics> spaces) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, SpaceMetrics> e : spaces.entrySet()) {
            SpaceMetrics m = e.getValue();
            g.writeObjectFieldStart(e.getKey());
            g.writeStringField("kind", m.kind());
            if (m.capacity().isPresent()) {
                g.writeNumberField("capacity", m.capacity().getAsLong());
            }
            g.writeNumberField("highWater", m.highWater());
            g.writeNumberField("peakLive", m.peakLive());
            if (m.optimality().isPresent()) {
                g.writeNumberField("peakStep", m.peakStep());
                g.writeNumberField("lowerBound", m.optimality().get().lowerBound());
            }
            g.writeNumberField("generationOverhead", m.generationOverhead());
            g.writeNumberField("runtimeReserve", m.runtimeReserve());
            if (m.optimality().isPresent()) {
                Optimality o = m.optimality().get();
                g.writeStringField("solver", o.solver().id());
                g.writeStringField("proof", o.proof().id());
                if (o.open().isPresent()) {
                    g.writeStringField("open", o.open().get().id());
                }
                g.writeBooleanField("timeLimited", o.timeLimited());
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** The version 2 fields of a space: what is proved about its high-water mark. */
    private static Optimality optimality(JsonNode m, String p) {
        long lower = Json.size(m.get("lowerBound"), p + ".lowerBound");
        String solverId = Json.string(m.get("solver"), p + ".solver");
        SolverKind solver = SolverKind.byId(solverId).orElseThrow(() -> Require.invalid(p + ".solver", solverId,
                "'" + solverId + "' is not one of " + SolverKind.ids()));
        String proofId = Json.string(m.get("proof"), p + ".proof");
        Optimality.Proof proof = Optimality.Proof.byId(proofId).orElseThrow(() -> Require.invalid(p + ".proof",
                proofId, "'" + proofId + "' is not one of lower-bound, search, open"));
        Optional<Optimality.Open> open = Optional.empty();
        if (m.has("open")) {
            String openId = Json.string(m.get("open"), p + ".open");
            open = Optional.of(Optimality.Open.byId(openId).orElseThrow(() -> Require.invalid(p + ".open", openId,
                    "'" + openId + "' is not one of " + Optimality.Open.ids())));
        }
        if ((proof == Optimality.Proof.OPEN) != open.isPresent()) {
            throw Require.invalid(p + ".open", (open.isPresent()
                    ? "a space with proof '" + proofId + "' has no open bracket, so no 'open' reason"
                    : "a space with proof 'open' says why in 'open' (" + Optimality.Open.ids() + ")"));
        }
        JsonNode t = m.get("timeLimited");
        if (!t.isBoolean()) {
            throw Require.invalid(p + ".timeLimited", Json.text(t), "expected true or false, got "
                    + Json.kind(t));
        }
        if (open.isPresent() && open.get() == Optimality.Open.TIME_LIMIT && !t.booleanValue()) {
            throw Require.invalid(p + ".timeLimited", "false, but the bracket was left open by "
                    + "the time limit");
        }
        return new Optimality(solver, lower, proof, open, t.booleanValue());
    }

    /** A generator printing JSON the way Berth writes all its JSON (see {@link ArtifactPrinter}). */
    public static JsonGenerator generator(OutputStream out) throws IOException {
        JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out, JsonEncoding.UTF8);
        g.setPrettyPrinter(new ArtifactPrinter());
        g.setCharacterEscapes(ControlEscapes.INSTANCE);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        return g;
    }

    public static String toString(Plan plan) {
        return new String(toBytes(plan), StandardCharsets.UTF_8);
    }

    /**
     * Reads a plan file, streaming: its buffers and descriptors go from the parser straight into
     * the plan, the rest (target, spaces) is small. A file with an error of any kind is read again
     * as a tree ({@link Json#read}) so that the error is the one the whole file gives.
     */
    public static Plan read(Path file) {
        try (JsonParser p = Json.open(file)) {
            return read(p);
        } catch (IOException | RuntimeException e) {
            // the file has an error: the whole file, read as a tree, says which one comes first
            return read(Json.read(file));
        }
    }

    /** Strict reader: unknown keys, and a capacity on a logical space, are {@code invalid-input}. */
    public static Plan read(JsonNode root) {
        if (root == null || root.isMissingNode()) {
            Json.root(root, "plan file", KEYS, REQUIRED);
        }
        try (JsonParser p = Json.traverse(root)) {
            return read(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final Set<String> KEYS = Set.of("format", "version", "target", "workload", "solver", "spaces",
            "buffers", "descriptors", "assignment", "order");
    /**
     * Every version Berth ever wrote has {@code descriptors} (an empty list when nothing is tiled):
     * a file without it was edited, and reading it as an empty list would hide a tiled plan's
     * descriptors behind a default.
     */
    private static final Set<String> REQUIRED = Set.of("format", "version", "target", "workload", "solver", "spaces",
            "buffers", "descriptors");
    /** A buffer's members, in {@link Members}' numbering. */
    private static final List<String> BUFFER_KEYS = List.of("name", "space", "offset", "requested", "reserved",
            "alignment", "live", "origin", "of", "sharesWith");
    private static final Set<String> BUFFER_REQUIRED = Set.of("name", "space", "offset", "requested", "reserved",
            "alignment", "live", "origin");
    private static final int NAME = 0;
    private static final int SPACE = 1;
    private static final int OFFSET = 2;
    private static final int REQUESTED = 3;
    private static final int RESERVED = 4;
    private static final int ALIGNMENT = 5;
    private static final int LIVE = 6;
    private static final int ORIGIN = 7;
    private static final int OF = 8;
    private static final int SHARES_WITH = 9;
    private static final Set<String> OPERATOR_KEYS = Set.of("name", "reads", "writes");
    private static final List<String> DESCRIPTOR_KEYS = List.of("name", "tile", "of", "address", "transferBytes",
            "space", "addressFormat");
    private static final int D_NAME = 0;
    private static final int D_TILE = 1;
    private static final int D_OF = 2;
    private static final int D_ADDRESS = 3;
    private static final int D_TRANSFER = 4;
    private static final int D_SPACE = 5;
    private static final int D_FORMAT = 6;

    /** The reader itself, over any parser: a file's, or a tree's. */
    static Plan read(JsonParser p) throws IOException {
        TopLevel top = TopLevel.read(p, "plan file", KEYS, REQUIRED, Map.of(
                "buffers", q -> Members.elements(q, new Members("buffers", BUFFER_KEYS, BUFFER_REQUIRED), PlanJson::buffer),
                "descriptors", q -> Members.elements(q, new Members("descriptors", DESCRIPTOR_KEYS,
                        Set.copyOf(DESCRIPTOR_KEYS)), PlanJson::descriptor)));
        // the checks in their order
        String format = Json.string(top.value("format"), "format");
        if (!Plan.FORMAT.equals(format)) {
            throw Require.invalid("format", format, "'" + format + "' is not a Berth plan (expected \""
                    + Plan.FORMAT + "\")");
        }
        int version = Json.integer(top.value("version"), "version", 0);
        if (version < Plan.OLDEST_READ || version > Plan.VERSION) {
            throw Require.invalid("version", Integer.toString(version), "this Berth reads berth-plan versions "
                    + Plan.OLDEST_READ + " to " + Plan.VERSION + ", not " + version);
        }
        Target target = TargetJson.read(top.value("target"), "plan", "target");
        String workload = Json.string(top.value("workload"), "workload");
        String solverId = Json.string(top.value("solver"), "solver");
        SolverChoice solver = SolverChoice.byId(solverId).orElseThrow(() -> Require.invalid("solver", solverId,
                "'" + solverId + "' is not one of " + SolverChoice.ids()));
        Map<String, SpaceMetrics> spaces = spaces(top.value("spaces"), target, version);
        List<PlannedBuffer> buffers = top.elements("buffers");
        List<DescriptorEntry> descriptors = top.elements("descriptors");
        if (version == 1) {
            // v1 does not carry the peak step: the reservations give it
            spaces.replaceAll((name, m) -> withPeakStep(buffers, name, m));
        }
        Optional<Assignment> assignment = Optional.empty();
        JsonNode a = top.value("assignment");
        if (version < 3 && a != null) {
            throw Require.invalid("assignment", "a version " + version + " plan has none (it came "
                    + "with version 3)");
        }
        if (version == 3 && a == null) {
            throw Require.invalid("assignment", "required key 'assignment' is missing (a version 3 "
                + "plan is one whose buffers had candidate spaces; without them a plan is version 2)");
        }
        if (a != null) {
            assignment = Optional.of(AssignmentJson.read(a, "assignment"));
        }
        JsonNode o = top.value("order");
        if (version < 4 && o != null) {
            throw Require.invalid("order", "a version " + version + " plan has none (it came with "
                    + "version 4)");
        }
        if (version < 4) {
            for (int i = 0; i < buffers.size(); i++) {
                if (buffers.get(i).sharesWith().isPresent()) {
                    String at = "buffers[" + i + "].sharesWith";
                    throw Require.invalid(at, buffers.get(i).sharesWith().get(), "a version " + version
                            + " plan has no buffer written over another (sharesWith came with version 4)");
                }
            }
        }
        Optional<List<Operator>> order = Optional.empty();
        if (version == 4) {
            if (o == null) {
                throw Require.invalid("order", "required key 'order' is missing (a version 4 plan is one "
                        + "whose workload had operators; without them a plan is version 2 or 3)");
            }
            order = Optional.of(order(o));
        }
        return new Plan(target, workload, solver, spaces, buffers, descriptors, assignment, order);
    }

    /** {@code order}: per step, {@code {name, reads, writes}}, all three required, the lists of names. */
    private static List<Operator> order(JsonNode o) {
        List<JsonNode> steps = Json.array(o, "order");
        List<Operator> out = new ArrayList<>(steps.size());
        for (int s = 0; s < steps.size(); s++) {
            String at = "order[" + s + "]";
            JsonNode n = Json.object(steps.get(s), at, OPERATOR_KEYS, OPERATOR_KEYS);
            out.add(new Operator(Json.string(n.get("name"), at + ".name"), Json.strings(n.get("reads"), at + ".reads"),
                    Json.strings(n.get("writes"), at + ".writes")));
        }
        return out;
    }


    private static Map<String, SpaceMetrics> spaces(JsonNode sp, Target target, int version) {
        Map<String, SpaceMetrics> spaces = new LinkedHashMap<>();
        Json.object(sp, "spaces", target.spaces().keySet(), target.spaces().keySet());
        for (Iterator<Map.Entry<String, JsonNode>> it = sp.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String p = "spaces." + e.getKey();
            Space s = target.spaces().get(e.getKey());
            JsonNode m = version == 1
                    ? Json.object(e.getValue(), p, Set.of("kind", "capacity", "highWater", "peakLive", "generationOverhead",
                    "runtimeReserve"), Set.of("kind", "highWater", "peakLive", "generationOverhead", "runtimeReserve"))
                    : Json.object(e.getValue(), p, Set.of("kind", "capacity", "highWater", "peakLive", "peakStep",
                    "lowerBound", "generationOverhead", "runtimeReserve", "solver", "proof", "open", "timeLimited"),
                    Set.of("kind", "highWater", "peakLive", "peakStep", "lowerBound", "generationOverhead",
                    "runtimeReserve", "solver", "proof", "timeLimited"));
            String kind = Json.string(m.get("kind"), p + ".kind");
            if (!kind.equals(s.kind())) {
                throw Require.invalid(p + ".kind", kind, "'" + kind + "' but the plan's target says "
                        + s.kind());
            }
            if (m.has("capacity") && s instanceof Space.Logical) {
                throw Require.invalid(p + ".capacity", Json.text(m.get("capacity")),
                        "a logical space has no compile-time capacity; give the runtime's capacity to "
                        + "check-deploy");
            }
            OptionalLong cap = m.has("capacity") ? OptionalLong.of(Json.size(m.get("capacity"), p + ".capacity"))
                    : OptionalLong.empty();
            spaces.put(e.getKey(), new SpaceMetrics(kind, cap, Json.size(m.get("highWater"), p + ".highWater"),
                    Json.size(m.get("peakLive"), p + ".peakLive"),
                    version == 1 ? -1 : Json.integer(m.get("peakStep"), p + ".peakStep", -1),
                    Json.size(m.get("generationOverhead"), p + ".generationOverhead"),
                    Json.size(m.get("runtimeReserve"), p + ".runtimeReserve"),
                    version == 1 ? Optional.empty() : Optional.of(optimality(m, p))));
        }
        return spaces;
    }

    private static PlannedBuffer buffer(Members b) {
        b.check();
        String origin = b.string(ORIGIN);
        Origin o = Origin.byId(origin).orElseThrow(() -> Require.invalid(b.path(ORIGIN), origin,
                "'" + origin + "' is not one of tensor, fixed, tile, descriptor-table, instructions"));
        String name = b.string(NAME);
        String space = b.string(SPACE);
        long offset = b.size(OFFSET);
        long requested = b.size(REQUESTED);
        long reserved = b.size(RESERVED);
        long alignment = b.size(ALIGNMENT);
        Lifetime live = b.isLifetime(LIVE) ? new Lifetime(b.first(LIVE), b.last(LIVE))
                : WorkloadJson.live(b.node(LIVE), b.path(LIVE));
        return new PlannedBuffer(name, space, offset, requested, reserved, alignment, live, o,
                b.has(OF) ? Optional.of(b.string(OF)) : Optional.empty(),
                b.has(SHARES_WITH) ? Optional.of(Json.nonEmpty(b.string(SHARES_WITH), b.path(SHARES_WITH)))
                        : Optional.empty());
    }

    private static DescriptorEntry descriptor(Members d) {
        d.check();
        return new DescriptorEntry(d.string(D_NAME), d.integer(D_TILE, 0), d.string(D_OF), d.size(D_ADDRESS),
                d.size(D_TRANSFER), d.string(D_SPACE), d.string(D_FORMAT));
    }

    /**
     * A version 1 space's metrics {@code m} with the peak step the assembler gives its buffers
     * ({@link SpaceAssembler#withPeakStep}: their steps and reserved bytes alone, so that a buffer
     * past its space gets the validator's verdict). Bytes live at one step past 2^63-1 cannot be a
     * plan (no {@code peakLive} of the file is that large): {@code invalid-input} at the space's
     * {@code peakLive}.
     */
    private static SpaceMetrics withPeakStep(List<PlannedBuffer> buffers, String space, SpaceMetrics m) {
        List<PlannedBuffer> in = buffers.stream().filter(b -> b.space().equals(space)).toList();
        try {
            return SpaceAssembler.withPeakStep(m, in);
        } catch (BerthException e) {
            if (e.category() != Category.ARITHMETIC_OVERFLOW) {
                throw e;
            }
            String p = "spaces." + space + ".peakLive";
            throw Require.invalid(p, Long.toString(m.peakLive()), m.peakLive() + " in the plan, but "
                    + "in its buffers " + e.failure().message() + ": they cannot be a plan (a version 1 plan's peak "
                    + "step is measured from its buffers)");
        }
    }
}
