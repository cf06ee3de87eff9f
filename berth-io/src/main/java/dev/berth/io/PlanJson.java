package dev.berth.io;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.solve.LiveBytes;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.target.Space;
import dev.berth.target.Target;
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
 * Berth writes version 2 (each space also says what is proved about its high-water mark) and
 * reads versions 1 and 2; a plan read from a version 1 file is written back as version 1.
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
            for (PlannedBuffer b : plan.buffers()) {
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
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }

    /** The {@code spaces} object of §6, also used by {@code plan --json}. */
    /**
     * What the planner chose for buffers with candidate spaces (contract §7, {@code plan --json}):
     * cost, lower bound, proof, the baselines' costs (null when a policy cannot place
     * everything), and per such buffer its space and, when it missed its first choice, why.
     */
    public static void writeAssignment(JsonGenerator g, dev.berth.artifact.Assignment a) throws IOException {
        g.writeStartObject();
        g.writeNumberField("cost", a.cost());
        g.writeNumberField("lowerBound", a.lowerBound());
        g.writeNumberField("pinnedCost", a.pinnedCost());
        g.writeStringField("proof", a.proof().id());
        g.writeObjectFieldStart("baselines");
        for (dev.berth.artifact.Assignment.Baseline b : a.baselines()) {
            if (b.cost().isPresent()) {
                g.writeNumberField(b.policy(), b.cost().getAsLong());
            } else {
                g.writeNullField(b.policy());
            }
        }
        g.writeEndObject();
        g.writeArrayFieldStart("choices");
        for (dev.berth.artifact.Assignment.Choice c : a.choices()) {
            g.writeStartObject();
            g.writeStringField("buffer", c.buffer());
            g.writeStringField("space", c.space());
            g.writeNumberField("rank", c.rank());
            g.writeNumberField("cost", c.cost());
            if (c.why().isPresent()) {
                dev.berth.artifact.Assignment.Why w = c.why().get();
                g.writeObjectFieldStart("why");
                g.writeStringField("space", w.space());
                g.writeStringField("reason", w.reason().id());
                g.writeNumberField("step", w.step());
                g.writeNumberField("liveBytes", w.liveBytes());
                g.writeNumberField("usable", w.usable());
                g.writeNumberField("reserved", w.reserved());
                g.writeArrayFieldStart("holders");
                for (String h : w.holders()) {
                    g.writeString(h);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

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
        SolverKind solver = SolverKind.byId(solverId).orElseThrow(() -> BerthException.invalid(p + ".solver", solverId,
                p + ".solver: '" + solverId + "' is not one of " + SolverKind.ids()));
        String proofId = Json.string(m.get("proof"), p + ".proof");
        Optimality.Proof proof = Optimality.Proof.byId(proofId).orElseThrow(() -> BerthException.invalid(p + ".proof",
                proofId, p + ".proof: '" + proofId + "' is not one of lower-bound, search, open"));
        Optional<Optimality.Open> open = Optional.empty();
        if (m.has("open")) {
            String openId = Json.string(m.get("open"), p + ".open");
            open = Optional.of(Optimality.Open.byId(openId).orElseThrow(() -> BerthException.invalid(p + ".open", openId,
                    p + ".open: '" + openId + "' is not one of work-budget, time-limit, size, heuristic, tiles")));
        }
        if ((proof == Optimality.Proof.OPEN) != open.isPresent()) {
            throw BerthException.invalid(p + ".open", p + ".open: " + (open.isPresent()
                    ? "a space with proof '" + proofId + "' has no open bracket, so no 'open' reason"
                    : "a space with proof 'open' says why in 'open' (work-budget, time-limit, size, heuristic, tiles)"));
        }
        JsonNode t = m.get("timeLimited");
        if (!t.isBoolean()) {
            throw BerthException.invalid(p + ".timeLimited", Json.text(t), p + ".timeLimited: expected true or false, got "
                    + Json.kind(t));
        }
        if (open.isPresent() && open.get() == Optimality.Open.TIME_LIMIT && !t.booleanValue()) {
            throw BerthException.invalid(p + ".timeLimited", p + ".timeLimited: false, but the bracket was left open by "
                    + "the time limit");
        }
        return new Optimality(solver, lower, proof, open, t.booleanValue());
    }

    /** A generator printing JSON the way Berth writes all its JSON (see {@link ArtifactPrinter}). */
    public static JsonGenerator generator(OutputStream out) throws IOException {
        JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out, JsonEncoding.UTF8);
        g.setPrettyPrinter(new ArtifactPrinter());
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        return g;
    }

    public static String toString(Plan plan) {
        return new String(toBytes(plan), StandardCharsets.UTF_8);
    }

    public static Plan read(Path file) {
        return read(Json.read(file));
    }

    /** Strict reader: unknown keys, and a capacity on a logical space, are {@code invalid-input}. */
    public static Plan read(JsonNode root) {
        Json.root(root, "plan file", Set.of("format", "version", "target", "workload", "solver", "spaces", "buffers",
                "descriptors"), Set.of("format", "version", "target", "workload", "solver", "spaces", "buffers"));
        String format = Json.string(root.get("format"), "format");
        if (!Plan.FORMAT.equals(format)) {
            throw BerthException.invalid("format", format, "format: '" + format + "' is not a Berth plan (expected \""
                    + Plan.FORMAT + "\")");
        }
        int version = Json.integer(root.get("version"), "version", 0);
        if (version < Plan.OLDEST_READ || version > Plan.VERSION) {
            throw BerthException.invalid("version", Integer.toString(version), "version: this Berth reads berth-plan versions "
                    + Plan.OLDEST_READ + " to " + Plan.VERSION + ", not " + version);
        }
        Target target = TargetJson.read(root.get("target"), "plan", "target");
        String workload = Json.string(root.get("workload"), "workload");
        String solverId = Json.string(root.get("solver"), "solver");
        SolverChoice solver = SolverChoice.byId(solverId).orElseThrow(() -> BerthException.invalid("solver", solverId,
                "solver: '" + solverId + "' is not one of " + SolverChoice.ids()));
        Map<String, SpaceMetrics> spaces = new LinkedHashMap<>();
        JsonNode sp = root.get("spaces");
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
                throw BerthException.invalid(p + ".kind", kind, p + ".kind: '" + kind + "' but the plan's target says "
                        + s.kind());
            }
            if (m.has("capacity") && s instanceof Space.Logical) {
                throw BerthException.invalid(p + ".capacity", Json.text(m.get("capacity")), p + ".capacity: "
                        + "a logical space has no compile-time capacity; give the runtime's capacity to check-deploy");
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
        List<PlannedBuffer> buffers = new ArrayList<>();
        List<JsonNode> bs = Json.array(root.get("buffers"), "buffers");
        for (int i = 0; i < bs.size(); i++) {
            String p = "buffers[" + i + "]";
            JsonNode b = Json.object(bs.get(i), p, Set.of("name", "space", "offset", "requested", "reserved", "alignment",
                    "live", "origin", "of"), Set.of("name", "space", "offset", "requested", "reserved", "alignment", "live",
                    "origin"));
            String origin = Json.string(b.get("origin"), p + ".origin");
            Origin o = Origin.byId(origin).orElseThrow(() -> BerthException.invalid(p + ".origin", origin,
                    p + ".origin: '" + origin + "' is not one of tensor, fixed, tile, descriptor-table, instructions"));
            buffers.add(new PlannedBuffer(Json.string(b.get("name"), p + ".name"), Json.string(b.get("space"), p + ".space"),
                    Json.size(b.get("offset"), p + ".offset"), Json.size(b.get("requested"), p + ".requested"),
                    Json.size(b.get("reserved"), p + ".reserved"), Json.size(b.get("alignment"), p + ".alignment"),
                    WorkloadJson.live(b.get("live"), p + ".live"), o,
                    b.has("of") ? Optional.of(Json.string(b.get("of"), p + ".of")) : Optional.empty()));
        }
        List<DescriptorEntry> descriptors = new ArrayList<>();
        if (root.has("descriptors")) {
            List<JsonNode> ds = Json.array(root.get("descriptors"), "descriptors");
            for (int i = 0; i < ds.size(); i++) {
                String p = "descriptors[" + i + "]";
                JsonNode d = Json.object(ds.get(i), p, Set.of("name", "tile", "of", "address", "transferBytes", "space",
                        "addressFormat"), Set.of("name", "tile", "of", "address", "transferBytes", "space", "addressFormat"));
                descriptors.add(new DescriptorEntry(Json.string(d.get("name"), p + ".name"),
                        Json.integer(d.get("tile"), p + ".tile", 0), Json.string(d.get("of"), p + ".of"),
                        Json.size(d.get("address"), p + ".address"), Json.size(d.get("transferBytes"), p + ".transferBytes"),
                        Json.string(d.get("space"), p + ".space"), Json.string(d.get("addressFormat"), p + ".addressFormat")));
            }
        }
        if (version == 1) {
            // v1 does not carry the peak step: the reservations give it
            spaces.replaceAll((name, m) -> new SpaceMetrics(m.kind(), m.capacity(), m.highWater(), m.peakLive(),
                    peakStep(buffers, name), m.generationOverhead(), m.runtimeReserve()));
        }
        return new Plan(target, workload, solver, spaces, buffers, descriptors);
    }

    /** The first step with the most reserved bytes live in {@code space}, by the planner's own sweep. */
    private static int peakStep(List<PlannedBuffer> buffers, String space) {
        List<PlannedBuffer> in = buffers.stream().filter(b -> b.space().equals(space)).toList();
        int[] first = new int[in.size()];
        int[] last = new int[in.size()];
        long[] reserved = new long[in.size()];
        for (int i = 0; i < in.size(); i++) {
            first[i] = in.get(i).live().first();
            last[i] = in.get(i).live().last();
            reserved[i] = in.get(i).reserved();
        }
        return LiveBytes.peak(first, last, reserved).step();
    }
}
