package dev.berth.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.failure.BerthException;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads workload files (contract §5), strictly, streaming: the buffers go from the parser
 * straight into the workload, with no tree of the whole file. A file with an error of any kind
 * is read again as a tree ({@link Json#read}) so that the error reported is the one the whole
 * file gives: a syntax error anywhere outranks a field's error, and fields are checked in the
 * order below, not the file's.
 */
public final class WorkloadJson {
    private static final Set<String> KEYS = Set.of("workload", "buffers", "fixed");
    private static final Set<String> REQUIRED = Set.of("buffers");
    /** A buffer's members, in {@link Members}' numbering. */
    private static final List<String> BUFFER_KEYS = List.of("name", "size", "space", "live", "alignment", "tile",
            "accesses");
    private static final int NAME = 0;
    private static final int SIZE = 1;
    private static final int SPACE = 2;
    private static final int LIVE = 3;
    private static final int ALIGNMENT = 4;
    private static final int TILE = 5;
    private static final int ACCESSES = 6;
    private static final Set<String> BUFFER_REQUIRED = Set.of("name", "size", "space", "live");

    private WorkloadJson() {
    }

    /** The workload of {@code file}, its spaces those of {@code target}. */
    public static Workload read(Path file, Target target) {
        String fileName = file.getFileName().toString();
        String name = fileName.endsWith(".json") ? fileName.substring(0, fileName.length() - 5) : fileName;
        try (JsonParser p = Json.open(file)) {
            return read(p, name, target);
        } catch (IOException | RuntimeException e) {
            // the file has an error: the whole file, read as a tree, says which one comes first
            return read(Json.read(file), name, target);
        }
    }

    /** The workload of a file already read as a tree (the same checks and errors as {@link #read(Path, Target)}). */
    public static Workload read(JsonNode root, String defaultName, Target target) {
        if (root == null || root.isMissingNode()) {
            Json.root(root, "workload file", KEYS, REQUIRED);
        }
        try (JsonParser p = Json.traverse(root)) {
            return read(p, defaultName, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The reader itself, over any parser: a file's, or a tree's. */
    static Workload read(JsonParser p, String defaultName, Target target) throws IOException {
        TopLevel top = TopLevel.read(p, "workload file", KEYS, REQUIRED, Map.of("buffers",
                q -> Members.elements(q, new Members("buffers", BUFFER_KEYS, BUFFER_REQUIRED), m -> buffer(m, target))));
        // the checks in their order
        String name = top.has("workload") ? Json.string(top.value("workload"), "workload") : defaultName;
        List<BufferSpec> buffers = top.elements("buffers");
        List<FixedRegion> fixed = new ArrayList<>();
        if (top.has("fixed")) {
            List<JsonNode> fs = Json.array(top.value("fixed"), "fixed");
            for (int i = 0; i < fs.size(); i++) {
                fixed.add(fixed(fs.get(i), "fixed[" + i + "]", target));
            }
        }
        return new Workload(name, buffers, fixed);
    }

    private static BufferSpec buffer(Members m, Target target) {
        m.check();
        String name = Json.nonEmpty(m.string(NAME), m.path(NAME));
        long size = m.size(SIZE);
        List<Space> spaces = spaces(m, name, target);
        Lifetime live = m.isLifetime(LIVE) ? new Lifetime(m.first(LIVE), m.last(LIVE)) : live(m.node(LIVE), m.path(LIVE));
        long align = 1;
        if (m.has(ALIGNMENT)) {
            align = m.size(ALIGNMENT);
            if (align == 0) {
                String p = m.path(ALIGNMENT);
                throw BerthException.invalid(p, "0", p + ": must be a positive whole number, got 0");
            }
        }
        Optional<TileSpec> tile = Optional.empty();
        if (m.has(TILE)) {
            String tp = m.path(TILE);
            JsonNode t = Json.object(m.node(TILE), tp, Set.of("through", "buffers", "count"), Set.of("through", "buffers"));
            tile = Optional.of(new TileSpec(target.space(Json.string(t.get("through"), tp + ".through"), tp + ".through"),
                    Json.integer(t.get("buffers"), tp + ".buffers", 1),
                    t.has("count") ? OptionalInt.of(Json.integer(t.get("count"), tp + ".count", 1)) : OptionalInt.empty()));
        }
        long accesses = m.has(ACCESSES) ? m.count(ACCESSES, "how many times buffer '" + name
                + "''s bytes are read or written") : 1;
        if (tile.isPresent() && spaces.size() > 1) {
            throw BerthException.invalid(m.path(SPACE), m.path(SPACE) + ": buffer '" + name + "' is tiled: it has one "
                    + "space, not a list of candidates");
        }
        return new BufferSpec(name, size, spaces, accesses, align, live, tile);
    }

    /**
     * {@code space}: a space name, or a list of candidate spaces, fastest first (contract §5.2):
     * non-empty, each a space of the target, none twice; every error names the buffer.
     */
    private static List<Space> spaces(Members m, String buffer, Target target) {
        String p = m.path(SPACE);
        JsonNode n = m.has(SPACE) && m.isText(SPACE) ? null : m.node(SPACE);
        if (n == null || !n.isArray()) {
            String spaceName = m.string(SPACE);
            Space space = target.spaces().get(spaceName);
            return List.of(space != null ? space : target.space(spaceName, p));
        }
        if (n.isEmpty()) {
            throw BerthException.invalid(p, "[]", p + ": buffer '" + buffer + "': the list of candidate spaces is empty; "
                    + "give at least one space");
        }
        List<Space> out = new ArrayList<>();
        for (int j = 0; j < n.size(); j++) {
            String pj = p + "[" + j + "]";
            String spaceName = Json.string(n.get(j), pj);
            Space s = target.spaces().get(spaceName);
            if (s == null) {
                try {
                    target.space(spaceName, pj);
                } catch (BerthException e) {
                    throw BerthException.invalid(pj, spaceName, "buffer '" + buffer + "': " + e.failure().message());
                }
            }
            if (out.contains(s)) {
                throw BerthException.invalid(pj, spaceName, pj + ": buffer '" + buffer + "': space '" + spaceName
                        + "' is already a candidate; each space is listed once");
            }
            out.add(s);
        }
        return out;
    }

    private static FixedRegion fixed(JsonNode n, String p, Target target) {
        Json.object(n, p, Set.of("name", "space", "offset", "size", "live"), Set.of("name", "space", "offset", "size", "live"));
        String name = Json.name(n.get("name"), p + ".name");
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
