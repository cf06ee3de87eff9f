package dev.berth.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.failure.BerthException;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/** Reads workload files (contract §5), strictly. */
public final class WorkloadJson {
    private WorkloadJson() {
    }

    /** The workload of {@code file}, its spaces those of {@code target}. */
    public static Workload read(Path file, Target target) {
        String fileName = file.getFileName().toString();
        return read(Json.read(file), fileName.endsWith(".json") ? fileName.substring(0, fileName.length() - 5) : fileName,
                target);
    }

    public static Workload read(JsonNode root, String defaultName, Target target) {
        Json.root(root, "workload file", Set.of("workload", "buffers", "fixed"), Set.of("buffers"));
        String name = root.has("workload") ? Json.string(root.get("workload"), "workload") : defaultName;
        List<BufferSpec> buffers = new ArrayList<>();
        List<JsonNode> bs = Json.array(root.get("buffers"), "buffers");
        for (int i = 0; i < bs.size(); i++) {
            buffers.add(buffer(bs.get(i), "buffers[" + i + "]", target));
        }
        List<FixedRegion> fixed = new ArrayList<>();
        if (root.has("fixed")) {
            List<JsonNode> fs = Json.array(root.get("fixed"), "fixed");
            for (int i = 0; i < fs.size(); i++) {
                fixed.add(fixed(fs.get(i), "fixed[" + i + "]", target));
            }
        }
        return new Workload(name, buffers, fixed);
    }

    private static BufferSpec buffer(JsonNode n, String p, Target target) {
        Json.object(n, p, Set.of("name", "size", "space", "live", "alignment", "tile"), Set.of("name", "size", "space", "live"));
        String name = Json.string(n.get("name"), p + ".name");
        long size = Json.size(n.get("size"), p + ".size");
        Space space = target.space(Json.string(n.get("space"), p + ".space"), p + ".space");
        Lifetime live = live(n.get("live"), p + ".live");
        long align = 1;
        if (n.has("alignment")) {
            align = Json.size(n.get("alignment"), p + ".alignment");
            if (align == 0) {
                throw BerthException.invalid(p + ".alignment", "0", p + ".alignment: must be a positive whole number, got 0");
            }
        }
        Optional<TileSpec> tile = Optional.empty();
        if (n.has("tile")) {
            String tp = p + ".tile";
            JsonNode t = Json.object(n.get("tile"), tp, Set.of("through", "buffers", "count"), Set.of("through", "buffers"));
            tile = Optional.of(new TileSpec(target.space(Json.string(t.get("through"), tp + ".through"), tp + ".through"),
                    Json.integer(t.get("buffers"), tp + ".buffers", 1),
                    t.has("count") ? OptionalInt.of(Json.integer(t.get("count"), tp + ".count", 1)) : OptionalInt.empty()));
        }
        return new BufferSpec(name, size, space, align, live, tile);
    }

    private static FixedRegion fixed(JsonNode n, String p, Target target) {
        Json.object(n, p, Set.of("name", "space", "offset", "size", "live"), Set.of("name", "space", "offset", "size", "live"));
        String name = Json.string(n.get("name"), p + ".name");
        Space space = target.space(Json.string(n.get("space"), p + ".space"), p + ".space");
        long offset;
        long size;
        try {
            offset = Json.size(n.get("offset"), p + ".offset");
            size = Json.size(n.get("size"), p + ".size");
        } catch (BerthException e) {
            throw BerthException.invalid(p, p + ": the earlier stage's record is corrupt: " + e.failure().message());
        }
        if (size > Long.MAX_VALUE - offset) {
            throw BerthException.invalid(p, p + ": the earlier stage's record is corrupt: offset " + offset + " + size "
                    + size + " is past 2^63-1");
        }
        return new FixedRegion(name, space, offset, size, live(n.get("live"), p + ".live"));
    }

    static Lifetime live(JsonNode n, String p) {
        List<JsonNode> a = Json.array(n, p);
        if (a.size() != 2) {
            throw BerthException.invalid(p, Json.text(n), p + ": expected [first, last] (two inclusive step numbers), got "
                    + a.size() + " values");
        }
        int first = Json.integer(a.get(0), p + "[0]", 0);
        int last = Json.integer(a.get(1), p + "[1]", 0);
        if (last < first) {
            throw BerthException.invalid(p, Json.text(n), p + ": [" + first + ", " + last
                    + "] is reversed: last must be at least first (steps are inclusive)");
        }
        return new Lifetime(first, last);
    }
}
