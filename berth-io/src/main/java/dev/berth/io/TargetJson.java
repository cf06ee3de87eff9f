package dev.berth.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.failure.Require;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/** Reads and writes target files (contract §4), strictly. */
public final class TargetJson {
    /** The targets shipped in the jar. */
    public static final List<String> BUNDLED = List.of("npu-ref", "teaching", "tflm");

    private TargetJson() {
    }

    /** {@code --target NAME|FILE}: a bundled name, else a file path. */
    public static Target load(String nameOrFile) {
        if (BUNDLED.contains(nameOrFile)) {
            try (InputStream in = TargetJson.class.getResourceAsStream("/dev/berth/targets/" + nameOrFile + ".json")) {
                return read(Json.parse(in, nameOrFile), nameOrFile);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Path p = Path.of(nameOrFile);
        if (!Files.exists(p)) {
            throw Require.invalid("--target", nameOrFile, "'" + nameOrFile
                    + "' is neither a bundled target (" + String.join(", ", BUNDLED) + ") nor an existing file");
        }
        String fileName = p.getFileName().toString();
        return read(Json.read(p), fileName.endsWith(".json") ? fileName.substring(0, fileName.length() - 5) : fileName);
    }

    /** Reads a target object; {@code defaultName} is used when it has no {@code target} key. */
    public static Target read(JsonNode root, String defaultName) {
        return read(root, defaultName, "");
    }

    static Target read(JsonNode root, String defaultName, String base) {
        Set<String> keys = Set.of("target", "formats", "spaces", "generation");
        if (base.isEmpty()) {
            Json.root(root, "target file", keys, Set.of("formats", "spaces"));
        } else {
            Json.object(root, base, keys, Set.of("formats", "spaces"));
        }
        String name = root.has("target") ? Json.string(root.get("target"), Json.join(base, "target")) : defaultName;
        Map<String, AddressFormat> formats = new LinkedHashMap<>();
        String fpath = Json.join(base, "formats");
        JsonNode fs = Json.object(root.get("formats"), fpath, fieldNames(root.get("formats")), Set.of());
        for (Iterator<Map.Entry<String, JsonNode>> it = fs.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String p = fpath + "." + e.getKey();
            JsonNode f = Json.object(e.getValue(), p, Set.of("maxAddress", "end"), Set.of("maxAddress"));
            long max = Json.size(f.get("maxAddress"), p + ".maxAddress");
            EndConvention end = EndConvention.EXCLUSIVE;
            if (f.has("end")) {
                String s = Json.string(f.get("end"), p + ".end");
                end = EndConvention.byId(s).orElseThrow(() -> Require.invalid(p + ".end", s,
                        "'" + s + "' is not an end convention; use \"exclusive\" or \"last-byte\""));
            }
            formats.put(e.getKey(), new AddressFormat(e.getKey(), max, end));
        }
        Map<String, Space> spaces = new LinkedHashMap<>();
        String spath = Json.join(base, "spaces");
        JsonNode ss = Json.object(root.get("spaces"), spath, fieldNames(root.get("spaces")), Set.of());
        if (ss.isEmpty()) {
            throw Require.invalid(spath, "the target has no space; a target needs at least one space");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = ss.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            // the key is the space's name: checked here so that the path is the key's own
            Require.spaceName(e.getKey(), spath + "." + e.getKey());
            spaces.put(e.getKey(), space(e.getKey(), e.getValue(), spath + "." + e.getKey(), formats));
        }
        Optional<Generation> gen = root.has("generation")
                ? Optional.of(generation(root.get("generation"), Json.join(base, "generation"), formats))
                : Optional.empty();
        return new Target(name, formats, spaces, gen);
    }

    private static Set<String> fieldNames(JsonNode n) {
        Set<String> s = new HashSet<>();
        if (n != null) {
            n.fieldNames().forEachRemaining(s::add);
        }
        return s;
    }

    private static Space space(String name, JsonNode n, String p, Map<String, AddressFormat> formats) {
        Json.object(n, p, Set.of("kind", "format", "alignment", "capacity", "base", "runtimeReserve", "accessCost"),
                Set.of("kind", "format"));
        Space s = kindOf(name, n, p, formats);
        return n.has("accessCost") ? withAccessCost(s, Json.count(n.get("accessCost"), p + ".accessCost",
                "the cost of one byte accessed")) : s;
    }

    /** The space with that access cost instead of its kind's default. */
    private static Space withAccessCost(Space s, long cost) {
        if (s instanceof Space.Logical l) {
            return new Space.Logical(l.name(), l.format(), l.alignment(), l.runtimeReserve(), cost);
        }
        if (s instanceof Space.Local l) {
            return new Space.Local(l.name(), l.format(), l.alignment(), l.runtimeReserve(), l.capacityBytes(), cost);
        }
        Space.External e = (Space.External) s;
        return new Space.External(e.name(), e.format(), e.alignment(), e.runtimeReserve(), e.base(), e.capacity(), cost);
    }

    private static Space kindOf(String name, JsonNode n, String p, Map<String, AddressFormat> formats) {
        String kind = Json.string(n.get("kind"), p + ".kind");
        String fname = Json.string(n.get("format"), p + ".format");
        AddressFormat fmt = formats.get(fname);
        if (fmt == null) {
            throw Require.invalid(p + ".format", fname, "no format named '" + fname
                    + "' in formats (" + String.join(", ", formats.keySet()) + ")");
        }
        long align = n.has("alignment") ? Json.size(n.get("alignment"), p + ".alignment") : 1;
        if (align == 0) {
            throw Require.invalid(p + ".alignment", "0", "must be a positive whole number, got 0");
        }
        long reserve = n.has("runtimeReserve") ? Json.size(n.get("runtimeReserve"), p + ".runtimeReserve") : 0;
        switch (kind) {
            case "logical" -> {
                if (n.has("capacity")) {
                    throw Require.invalid(p + ".capacity", Json.text(n.get("capacity")),
                            "a logical space has no compile-time capacity; give the runtime's capacity to "
                            + "check-deploy");
                }
                forbid(n, p, "base", "only an external space has a base");
                return new Space.Logical(name, fmt, align, reserve);
            }
            case "local" -> {
                if (!n.has("capacity")) {
                    throw Require.invalid(p + ".capacity", "a local space needs its capacity");
                }
                forbid(n, p, "base", "only an external space has a base");
                long cap = Json.size(n.get("capacity"), p + ".capacity");
                checkReserve(p, cap, reserve);
                return new Space.Local(name, fmt, align, reserve, cap);
            }
            case "external" -> {
                if (!n.has("base")) {
                    throw Require.invalid(p + ".base", "an external space needs its base address");
                }
                long b = Json.size(n.get("base"), p + ".base");
                OptionalLong cap = n.has("capacity") ? OptionalLong.of(Json.size(n.get("capacity"), p + ".capacity"))
                        : OptionalLong.empty();
                if (cap.isPresent()) {
                    checkReserve(p, cap.getAsLong(), reserve);
                }
                return new Space.External(name, fmt, align, reserve, b, cap);
            }
            default -> throw Require.invalid(p + ".kind", kind, "'" + kind
                    + "' is not a space kind; use \"logical\", \"local\" or \"external\"");
        }
    }

    private static void forbid(JsonNode n, String p, String key, String why) {
        if (n.has(key)) {
            throw Require.invalid(p + "." + key, Json.text(n.get(key)), why);
        }
    }

    private static void checkReserve(String p, long cap, long reserve) {
        if (reserve > cap) {
            throw Require.invalid(p + ".runtimeReserve", Long.toString(reserve), reserve
                    + " is more than the capacity " + cap + " (capacity - runtimeReserve would be negative)");
        }
    }

    private static Generation generation(JsonNode n, String p, Map<String, AddressFormat> formats) {
        Json.object(n, p, Set.of("descriptor", "instruction"), Set.of());
        Optional<Generation.Descriptor> d = Optional.empty();
        if (n.has("descriptor")) {
            String dp = p + ".descriptor";
            JsonNode x = Json.object(n.get("descriptor"), dp, Set.of("space", "bytes", "alignment", "addressFormat"),
                    Set.of("space", "bytes"));
            long al = x.has("alignment") ? positive(x.get("alignment"), dp + ".alignment") : 1;
            d = Optional.of(new Generation.Descriptor(Json.string(x.get("space"), dp + ".space"),
                    Json.size(x.get("bytes"), dp + ".bytes"), al,
                    x.has("addressFormat") ? Optional.of(Json.string(x.get("addressFormat"), dp + ".addressFormat"))
                            : Optional.empty()));
        }
        Optional<Generation.Instruction> i = Optional.empty();
        if (n.has("instruction")) {
            String ip = p + ".instruction";
            JsonNode x = Json.object(n.get("instruction"), ip, Set.of("space", "bytesPerStep", "alignment"),
                    Set.of("space", "bytesPerStep"));
            long al = x.has("alignment") ? positive(x.get("alignment"), ip + ".alignment") : 1;
            i = Optional.of(new Generation.Instruction(Json.string(x.get("space"), ip + ".space"),
                    Json.size(x.get("bytesPerStep"), ip + ".bytesPerStep"), al));
        }
        return new Generation(d, i);
    }

    private static long positive(JsonNode n, String path) {
        long v = Json.size(n, path);
        if (v == 0) {
            throw Require.invalid(path, "0", "must be a positive whole number, got 0");
        }
        return v;
    }

    /** Writes the target in the form of §4 (numbers as JSON integers). */
    public static void write(JsonGenerator g, Target t) throws IOException {
        g.writeStartObject();
        g.writeStringField("target", t.name());
        g.writeObjectFieldStart("formats");
        for (AddressFormat f : t.formats().values()) {
            g.writeObjectFieldStart(f.name());
            g.writeNumberField("maxAddress", f.maxAddress());
            g.writeStringField("end", f.end().id());
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeObjectFieldStart("spaces");
        for (Space s : t.spaces().values()) {
            g.writeObjectFieldStart(s.name());
            g.writeStringField("kind", s.kind());
            g.writeStringField("format", s.format().name());
            g.writeNumberField("alignment", s.alignment());
            if (s.capacity().isPresent()) {
                g.writeNumberField("capacity", s.capacity().getAsLong());
            }
            if (s instanceof Space.External) {
                g.writeNumberField("base", s.base());
            }
            g.writeNumberField("runtimeReserve", s.runtimeReserve());
            if (!s.hasDefaultAccessCost()) {
                g.writeNumberField("accessCost", s.accessCost());
            }
            g.writeEndObject();
        }
        g.writeEndObject();
        if (t.generation().isPresent()) {
            Generation gen = t.generation().get();
            g.writeObjectFieldStart("generation");
            if (gen.descriptor().isPresent()) {
                Generation.Descriptor d = gen.descriptor().get();
                g.writeObjectFieldStart("descriptor");
                g.writeStringField("space", d.space());
                g.writeNumberField("bytes", d.bytes());
                g.writeNumberField("alignment", d.alignment());
                if (d.addressFormat().isPresent()) {
                    g.writeStringField("addressFormat", d.addressFormat().get());
                }
                g.writeEndObject();
            }
            if (gen.instruction().isPresent()) {
                Generation.Instruction i = gen.instruction().get();
                g.writeObjectFieldStart("instruction");
                g.writeStringField("space", i.space());
                g.writeNumberField("bytesPerStep", i.bytesPerStep());
                g.writeNumberField("alignment", i.alignment());
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
