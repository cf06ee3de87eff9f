package dev.berth.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.failure.InputDetail;
import dev.berth.failure.Require;
import dev.berth.schedule.Reuse;
import dev.berth.schedule.Role;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.BufferUse;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Operator;
import dev.berth.workload.Operators;
import dev.berth.workload.Overwrite;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
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
    private static final Set<String> KEYS = Set.of("workload", "buffers", "fixed", "operators", "keepOrder");
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
    /** A buffer's members in a workload with operators: no steps of its own, a role and what it may be written over. */
    private static final List<String> OPERATOR_BUFFER_KEYS = List.of("name", "size", "space", "alignment", "tile",
            "accesses", "role", "overwrites");
    private static final int OP_NAME = 0;
    private static final int OP_SIZE = 1;
    private static final int OP_SPACE = 2;
    private static final int OP_ALIGNMENT = 3;
    private static final int OP_TILE = 4;
    private static final int OP_ACCESSES = 5;
    private static final int OP_ROLE = 6;
    private static final int OP_OVERWRITES = 7;
    private static final Set<String> OPERATOR_BUFFER_REQUIRED = Set.of("name", "size", "space");
    private static final Set<String> OPERATOR_KEYS = Set.of("name", "reads", "writes");
    private static final Set<String> OVERWRITE_KEYS = Set.of("input", "reason");

    private WorkloadJson() {
    }

    /**
     * The workload of {@code file}, its spaces those of {@code target}. An {@code invalid-input}
     * message names the file first, as the model importers' do ({@code FILE: buffers[0].space: ...}).
     */
    public static Workload read(Path file, Target target) {
        try {
            return readFile(file, target);
        } catch (BerthException e) {
            String where = file + ": ";
            if (e.failure() instanceof Failure.InvalidInput i && !i.message().contains(file.toString())) {
                throw new BerthException(new Failure.InvalidInput(where + i.message(), i.detail()));
            }
            throw e;
        }
    }

    private static Workload readFile(Path file, Target target) {
        String fileName = file.getFileName().toString();
        String name = fileName.endsWith(".json") ? fileName.substring(0, fileName.length() - 5) : fileName;
        try (JsonParser p = Json.open(file)) {
            Optional<Workload> w = readSteps(p, name, target);
            if (w.isPresent()) {
                return w.get();
            }
        } catch (IOException | RuntimeException e) {
            // the file has an error: the whole file, read as a tree, says which one comes first
        }
        // an error, or a file with operators (small: read as a tree, whose keys are known before its buffers)
        return read(Json.read(file), name, target);
    }

    /** The workload of a file already read as a tree (the same checks and errors as {@link #read(Path, Target)}). */
    public static Workload read(JsonNode root, String defaultName, Target target) {
        if (root == null || root.isMissingNode()) {
            Json.root(root, "workload file", KEYS, REQUIRED);
        }
        try (JsonParser p = Json.traverse(root)) {
            if (root.isObject() && root.has("operators")) {
                return readOperators(p, defaultName, target);
            }
            return readSteps(p, defaultName, target).orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The reader of a workload whose buffers give their steps, over any parser (a file's, or a
     * tree's); empty when the file turns out to have {@code operators} (its buffers were then read
     * as if they had steps: the caller reads it again, knowing).
     */
    static Optional<Workload> readSteps(JsonParser p, String defaultName, Target target) throws IOException {
        TopLevel top = TopLevel.read(p, "workload file", KEYS, REQUIRED, Map.of("buffers",
                q -> Members.elements(q, new Members("buffers", BUFFER_KEYS, BUFFER_REQUIRED), m -> buffer(m, target))));
        if (top.has("operators")) {
            return Optional.empty();
        }
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
        requireOperators(top, "keepOrder");
        return Optional.of(new Workload(name, buffers, fixed));
    }

    /** Only a workload with {@code operators} has {@code key}. */
    private static void requireOperators(TopLevel top, String key) {
        if (top.has(key)) {
            throw Require.invalid(key, "only a workload with operators keeps operators in order; "
                    + "add operators, or remove " + key);
        }
    }

    /**
     * A workload with operators (contract §5.3), checked in this order: the top-level keys,
     * {@code workload}, each buffer (its keys, then {@code name}, {@code size}, {@code space},
     * {@code alignment}, {@code tile}, {@code accesses}, {@code role}, {@code overwrites}),
     * {@code fixed}, each operator (its keys, {@code name}, {@code reads}, {@code writes}),
     * {@code keepOrder}; then the rules between them ({@link Operators.Listed#graph}).
     */
    private static Workload readOperators(JsonParser p, String defaultName, Target target) throws IOException {
        TopLevel top = TopLevel.read(p, "workload file", KEYS, REQUIRED, Map.of("buffers",
                q -> Members.elements(q, new Members("buffers", OPERATOR_BUFFER_KEYS, OPERATOR_BUFFER_REQUIRED),
                        m -> unstepped(m, target))));
        String name = top.has("workload") ? Json.string(top.value("workload"), "workload") : defaultName;
        List<Unstepped> buffers = top.elements("buffers");
        List<FixedRegion> fixed = new ArrayList<>();
        if (top.has("fixed")) {
            List<JsonNode> fs = Json.array(top.value("fixed"), "fixed");
            for (int i = 0; i < fs.size(); i++) {
                fixed.add(fixed(fs.get(i), "fixed[" + i + "]", target));
            }
        }
        List<JsonNode> os = Json.array(top.value("operators"), "operators");
        List<Operator> operators = new ArrayList<>(os.size());
        Set<String> written = new HashSet<>();
        for (int o = 0; o < os.size(); o++) {
            String at = "operators[" + o + "]";
            JsonNode n = Json.object(os.get(o), at, OPERATOR_KEYS, OPERATOR_KEYS);
            Operator op = new Operator(Json.string(n.get("name"), at + ".name"), Json.strings(n.get("reads"), at + ".reads"),
                    Json.strings(n.get("writes"), at + ".writes"));
            written.addAll(op.writes());
            operators.add(op);
        }
        List<List<String>> keepOrder = new ArrayList<>();
        if (top.has("keepOrder")) {
            List<JsonNode> cs = Json.array(top.value("keepOrder"), "keepOrder");
            for (int c = 0; c < cs.size(); c++) {
                keepOrder.add(Json.strings(cs.get(c), "keepOrder[" + c + "]"));
            }
        }
        List<BufferUse> uses = new ArrayList<>(buffers.size());
        for (Unstepped b : buffers) {
            // unstated: an input when no operator writes it, an intermediate when one does
            uses.add(new BufferUse(b.name(), b.role().orElse(written.contains(b.name()) ? Role.INTERMEDIATE : Role.INPUT),
                    b.overwrites()));
        }
        Operators.Listed listed = new Operators.Listed(operators, keepOrder, uses);
        Map<String, Lifetime> steps = listed.lifetimes();
        List<BufferSpec> specs = new ArrayList<>(buffers.size());
        for (Unstepped b : buffers) {
            specs.add(new BufferSpec(b.name(), b.size(), List.of(b.space()), b.accesses(), b.alignment(),
                    steps.get(b.name()), b.tile()));
        }
        return new Workload(name, specs, fixed, listed);
    }

    /** A buffer of a workload with operators, before the operators give its steps. */
    private record Unstepped(String name, long size, Space space, long accesses, long alignment, Optional<TileSpec> tile,
                             Optional<Role> role, List<Overwrite> overwrites) {
    }

    private static Unstepped unstepped(Members m, Target target) {
        m.check();
        String name = Json.nonEmpty(m.string(OP_NAME), m.path(OP_NAME));
        long size = m.size(OP_SIZE);
        if (!m.isText(OP_SPACE) && m.node(OP_SPACE).isArray()) {
            String p = m.path(OP_SPACE);
            throw Require.invalid(p, Json.text(m.node(OP_SPACE)), "buffer '" + name + "': in a workload "
                    + "with operators each buffer has one space, not a list of candidates");
        }
        String spaceName = m.string(OP_SPACE);
        Space space = target.space(spaceName, m.path(OP_SPACE));
        long align = alignment(m, OP_ALIGNMENT);
        Optional<TileSpec> tile = tile(m, OP_TILE, target);
        long accesses = m.has(OP_ACCESSES) ? m.count(OP_ACCESSES, "how many times buffer '" + name
                + "''s bytes are read or written") : 1;
        Optional<Role> role = Optional.empty();
        if (m.has(OP_ROLE)) {
            String id = m.string(OP_ROLE);
            role = Arrays.stream(Role.values()).filter(r -> r.id().equals(id)).findFirst();
            if (role.isEmpty()) {
                String p = m.path(OP_ROLE);
                throw Require.invalid(p, id, "expected input, intermediate, output, constant or variable, "
                        + "got '" + id + "'");
            }
        }
        List<Overwrite> overwrites = new ArrayList<>();
        if (m.has(OP_OVERWRITES)) {
            String p = m.path(OP_OVERWRITES);
            List<JsonNode> ws = Json.array(m.node(OP_OVERWRITES), p);
            for (int j = 0; j < ws.size(); j++) {
                String pj = p + "[" + j + "]";
                JsonNode w = Json.object(ws.get(j), pj, OVERWRITE_KEYS, OVERWRITE_KEYS);
                String input = Json.string(w.get("input"), pj + ".input");
                String why = Json.string(w.get("reason"), pj + ".reason");
                Reuse reason = Arrays.stream(Reuse.values()).filter(r -> r.id().equals(why)).findFirst()
                        .orElseThrow(() -> Require.invalid(pj + ".reason", why, "expected view or "
                                + "elementwise, got '" + why + "'"));
                overwrites.add(new Overwrite(input, reason));
            }
        }
        return new Unstepped(name, size, space, accesses, align, tile, role, overwrites);
    }

    /** {@code alignment}: a positive size, 1 when absent. */
    private static long alignment(Members m, int key) {
        long align = 1;
        if (m.has(key)) {
            align = m.size(key);
            if (align == 0) {
                String p = m.path(key);
                throw Require.invalid(p, "0", "must be a positive whole number, got 0");
            }
        }
        return align;
    }

    /** {@code tile}: through a space of the target, some buffers deep, in a count of tiles if given. */
    private static Optional<TileSpec> tile(Members m, int key, Target target) {
        if (!m.has(key)) {
            return Optional.empty();
        }
        String tp = m.path(key);
        JsonNode t = Json.object(m.node(key), tp, Set.of("through", "buffers", "count"), Set.of("through", "buffers"));
        return Optional.of(new TileSpec(target.space(Json.string(t.get("through"), tp + ".through"), tp + ".through"),
                Json.integer(t.get("buffers"), tp + ".buffers", 1),
                t.has("count") ? OptionalInt.of(Json.integer(t.get("count"), tp + ".count", 1)) : OptionalInt.empty()));
    }

    private static BufferSpec buffer(Members m, Target target) {
        m.check();
        String name = m.string(NAME);
        if (name.isEmpty()) {
            // the path is written only for a bad name: a file may hold 10^6 buffers
            Json.nonEmpty(name, m.path(NAME));
        }
        long size = m.size(SIZE);
        List<Space> spaces = spaces(m, name, target);
        Lifetime live = m.isLifetime(LIVE) ? new Lifetime(m.first(LIVE), m.last(LIVE)) : live(m.node(LIVE), m.path(LIVE));
        long align = alignment(m, ALIGNMENT);
        Optional<TileSpec> tile = tile(m, TILE, target);
        long accesses = m.has(ACCESSES) ? m.count(ACCESSES, "how many times buffer '" + name
                + "''s bytes are read or written") : 1;
        if (tile.isPresent() && spaces.size() > 1) {
            throw Require.invalid(m.path(SPACE), "buffer '" + name + "' is tiled: it has one "
                    + "space, not a list of candidates");
        }
        return new BufferSpec(name, size, spaces, accesses, align, live, tile);
    }

    /**
     * {@code space}: a space name, or a list of candidate spaces, fastest first (contract §5.2):
     * non-empty, each a space of the target, none twice; every error names the buffer.
     */
    private static List<Space> spaces(Members m, String buffer, Target target) {
        JsonNode n = m.has(SPACE) && m.isText(SPACE) ? null : m.node(SPACE);
        if (n == null || !n.isArray()) {
            String spaceName = m.string(SPACE);
            Space space = target.spaces().get(spaceName);
            return List.of(space != null ? space : target.space(spaceName, m.path(SPACE)));
        }
        String p = m.path(SPACE);
        if (n.isEmpty()) {
            throw Require.invalid(p, "[]", "buffer '" + buffer + "': the list of candidate spaces is empty; "
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
                throw Require.invalid(pj, spaceName, "buffer '" + buffer + "': space '" + spaceName
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
            throw Require.invalid(p, "the earlier stage's record is corrupt: " + e.failure().message());
        }
        if (size > Long.MAX_VALUE - offset) {
            throw Require.invalid(p, "the earlier stage's record is corrupt: offset " + offset + " + size "
                    + size + " is past 2^63-1");
        }
        return new FixedRegion(name, space, offset, size, live(n.get("live"), p + ".live"));
    }

    static Lifetime live(JsonNode n, String p) {
        List<JsonNode> a = Json.array(n, p);
        if (a.size() != 2) {
            throw Require.invalid(p, Json.text(n), "expected [first, last] (two inclusive step numbers), got "
                    + a.size() + " values");
        }
        int first = Json.integer(a.get(0), p + "[0]", 0);
        int last = Json.integer(a.get(1), p + "[1]", 0);
        if (last < first) {
            throw Require.invalid(p, Json.text(n), "[" + first + ", " + last
                    + "] is reversed: last must be at least first (steps are inclusive)");
        }
        return new Lifetime(first, last);
    }
}
