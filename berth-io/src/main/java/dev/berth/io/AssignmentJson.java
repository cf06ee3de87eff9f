package dev.berth.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.artifact.Assignment;
import dev.berth.failure.Require;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The {@code assignment} object: what the planner chose for the buffers with candidate spaces
 * (contract §6, version 3, and {@code plan --json}, §7): cost, lower bound, pinned cost, proof,
 * the baselines' costs (null when a policy cannot place everything) and per such buffer its
 * space and, when it missed its first candidate, why. One writer for both places; the reader is
 * strict (unknown keys, and numbers that do not add up, are {@code invalid-input} naming the field).
 */
public final class AssignmentJson {
    private static final Set<String> KEYS = Set.of("cost", "lowerBound", "pinnedCost", "proof", "baselines", "choices");
    private static final Set<String> CHOICE_KEYS = Set.of("buffer", "space", "rank", "cost", "why");
    private static final Set<String> CHOICE_REQUIRED = Set.of("buffer", "space", "rank", "cost");
    private static final Set<String> WHY_KEYS = Set.of("space", "reason", "step", "liveBytes", "usable", "reserved",
            "holders");

    private AssignmentJson() {
    }

    public static void write(JsonGenerator g, Assignment a) throws IOException {
        g.writeStartObject();
        g.writeNumberField("cost", a.cost());
        g.writeNumberField("lowerBound", a.lowerBound());
        g.writeNumberField("pinnedCost", a.pinnedCost());
        g.writeStringField("proof", a.proof().id());
        g.writeObjectFieldStart("baselines");
        for (Assignment.Baseline b : a.baselines()) {
            if (b.cost().isPresent()) {
                g.writeNumberField(b.policy(), b.cost().getAsLong());
            } else {
                g.writeNullField(b.policy());
            }
        }
        g.writeEndObject();
        g.writeArrayFieldStart("choices");
        for (Assignment.Choice c : a.choices()) {
            g.writeStartObject();
            g.writeStringField("buffer", c.buffer());
            g.writeStringField("space", c.space());
            g.writeNumberField("rank", c.rank());
            g.writeNumberField("cost", c.cost());
            if (c.why().isPresent()) {
                Assignment.Why w = c.why().get();
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

    /** The object at {@code path} (in a plan file, {@code "assignment"}). */
    static Assignment read(JsonNode n, String path) {
        Json.object(n, path, KEYS, KEYS);
        long cost = Json.count(n.get("cost"), path + ".cost", "a traffic cost");
        long lower = Json.count(n.get("lowerBound"), path + ".lowerBound", "a traffic cost");
        long pinned = Json.count(n.get("pinnedCost"), path + ".pinnedCost", "a traffic cost");
        String proofId = Json.string(n.get("proof"), path + ".proof");
        Assignment.Proof proof = Assignment.Proof.byId(proofId).orElseThrow(() -> Require.invalid(path + ".proof",
                proofId, "'" + proofId + "' is not one of lower-bound, search, open"));
        List<Assignment.Baseline> baselines = baselines(n.get("baselines"), path + ".baselines");
        List<JsonNode> cs = Json.array(n.get("choices"), path + ".choices");
        List<Assignment.Choice> choices = new ArrayList<>();
        for (int i = 0; i < cs.size(); i++) {
            choices.add(choice(cs.get(i), path + ".choices[" + i + "]"));
        }
        if (lower > cost) {
            throw Require.invalid(path + ".lowerBound", Long.toString(lower), lower
                    + " is above the cost " + cost);
        }
        if (pinned > lower) {
            throw Require.invalid(path + ".pinnedCost", Long.toString(pinned), pinned
                    + " is above the lower bound " + lower + " (every assignment pays it)");
        }
        if (proof == Assignment.Proof.LOWER_BOUND && cost != lower) {
            throw Require.invalid(path + ".proof", proofId, "'lower-bound', but the cost " + cost
                    + " is not the lower bound " + lower);
        }
        long sum = Assignment.total(pinned, choices);
        if (sum != cost) {
            throw Require.invalid(path + ".cost", Long.toString(cost), cost + " is not "
                    + "pinnedCost plus the choices' costs (" + (sum < 0 ? "past 2^63-1" : Long.toString(sum)) + ")");
        }
        return new Assignment(cost, lower, pinned, proof, choices, baselines);
    }

    private static List<Assignment.Baseline> baselines(JsonNode n, String path) {
        Json.object(n, path, Set.copyOf(Assignment.Baseline.POLICIES), Set.copyOf(Assignment.Baseline.POLICIES));
        List<Assignment.Baseline> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            out.add(new Assignment.Baseline(e.getKey(), v.isNull() ? OptionalLong.empty()
                    : OptionalLong.of(Json.count(v, path + "." + e.getKey(), "a traffic cost, or null"))));
        }
        return out;
    }

    private static Assignment.Choice choice(JsonNode n, String path) {
        Json.object(n, path, CHOICE_KEYS, CHOICE_REQUIRED);
        String buffer = name(n.get("buffer"), path + ".buffer");
        String space = name(n.get("space"), path + ".space");
        int rank = Json.integer(n.get("rank"), path + ".rank", 0);
        long cost = Json.count(n.get("cost"), path + ".cost", "a traffic cost");
        Optional<Assignment.Why> why = Optional.empty();
        if (n.has("why")) {
            if (rank == 0) {
                throw Require.invalid(path + ".why", buffer + " got its first candidate "
                        + "(rank 0): there is nothing to explain");
            }
            why = Optional.of(why(n.get("why"), path + ".why"));
        }
        return new Assignment.Choice(buffer, space, rank, cost, why);
    }

    private static Assignment.Why why(JsonNode n, String path) {
        Json.object(n, path, WHY_KEYS, WHY_KEYS);
        String space = name(n.get("space"), path + ".space");
        String reasonId = Json.string(n.get("reason"), path + ".reason");
        Assignment.Reason reason = Assignment.Reason.byId(reasonId).orElseThrow(() -> Require.invalid(path + ".reason",
                reasonId, "'" + reasonId + "' is not one of full, fragmented, not-cheaper"));
        int step = Json.integer(n.get("step"), path + ".step", 0);
        long live = Json.size(n.get("liveBytes"), path + ".liveBytes");
        long usable = Json.size(n.get("usable"), path + ".usable");
        long reserved = Json.size(n.get("reserved"), path + ".reserved");
        List<JsonNode> hs = Json.array(n.get("holders"), path + ".holders");
        if (hs.size() > Assignment.Why.MAX_HOLDERS) {
            throw Require.invalid(path + ".holders", hs.size() + " names, at most "
                    + Assignment.Why.MAX_HOLDERS);
        }
        List<String> holders = new ArrayList<>();
        for (int i = 0; i < hs.size(); i++) {
            holders.add(name(hs.get(i), path + ".holders[" + i + "]"));
        }
        return new Assignment.Why(space, step, live, usable, reserved, holders, reason);
    }

    private static String name(JsonNode n, String path) {
        String s = Json.string(n, path);
        if (s.isEmpty()) {
            throw Require.invalid(path, s, "must not be empty");
        }
        return s;
    }
}
