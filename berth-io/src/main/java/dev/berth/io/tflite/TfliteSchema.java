package dev.berth.io.tflite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TFLite schema as {@link TfliteRebuild} needs it: for every table, each field's kind by id;
 * for every union, its member tables by type code. Read from the resource {@code schema-fields.txt}
 * beside this class (its header gives the format and the schema it was read from).
 */
final class TfliteSchema {
    /** What a field holds, and so how a rebuild copies it. */
    enum Kind {
        /** {@link Field#size()} bytes inline (bool, enum, integer, float). */
        SCALAR,
        /** A string. */
        STRING,
        /** A vector of scalars of {@link Field#size()} bytes, its data aligned to {@link Field#align()}. */
        SCALARS,
        /** A table of type {@link Field#ref()}. */
        TABLE,
        /** A vector of tables of type {@link Field#ref()}. */
        TABLES,
        /** The value of union {@link Field#ref()}: a table whose type the field before gives. */
        UNION,
        /** An index into {@code Model.buffers} (u4). */
        BUFFER_INDEX,
        /** A vector of indices into {@code Model.buffers} (int32). */
        BUFFER_INDICES,
        /** A u8 position counted from the file's start (data outside the FlatBuffer). */
        FILE_POSITION
    }

    /**
     * @param size  a scalar's bytes, or a vector element's
     * @param align a scalar vector's data alignment (the schema's {@code force_align}, else its element size)
     * @param ref   a table's or union's name, else empty
     */
    record Field(int id, String name, Kind kind, int size, int align, String ref) {
        /** The field's bytes inside its table: a scalar's size, 4 for an offset. */
        int inlineSize() {
            return switch (kind) {
                case SCALAR, FILE_POSITION, BUFFER_INDEX -> size;
                default -> 4;
            };
        }
    }

    /** A table type: its fields in id order. */
    record TableType(String name, List<Field> fields) {
        TableType {
            fields = List.copyOf(fields);
        }
    }

    private static final Map<String, TableType> TABLES = new LinkedHashMap<>();
    private static final Map<String, List<String>> UNIONS = new LinkedHashMap<>();

    static {
        List<String> entries = new ArrayList<>();
        try (InputStream s = TfliteSchema.class.getResourceAsStream("schema-fields.txt")) {
            if (s == null) {
                throw new IllegalStateException("schema-fields.txt is missing beside TfliteSchema");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(s, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (Character.isWhitespace(line.charAt(0))) {
                    entries.set(entries.size() - 1, entries.get(entries.size() - 1) + " " + line.strip());
                } else {
                    entries.add(line.strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String e : entries) {
            int colon = e.indexOf(':');
            String head = e.substring(0, colon).strip();
            List<String> items = List.of(e.substring(colon + 1).strip().split("\\s*,\\s*"));
            if (head.startsWith("union ")) {
                UNIONS.put(head.substring(6).strip(), items);
            } else {
                List<Field> fields = new ArrayList<>();
                for (String item : items) {
                    if (!item.isEmpty()) {
                        String[] nk = item.split("\\s+");
                        fields.add(field(fields.size(), nk[0], nk[1]));
                    }
                }
                TABLES.put(head, new TableType(head, fields));
            }
        }
        for (TableType t : TABLES.values()) {
            for (Field f : t.fields()) {
                boolean known = switch (f.kind()) {
                    case TABLE, TABLES -> TABLES.containsKey(f.ref());
                    case UNION -> UNIONS.containsKey(f.ref()) && f.id() > 0
                            && t.fields().get(f.id() - 1).kind() == Kind.SCALAR && t.fields().get(f.id() - 1).size() == 1;
                    default -> true;
                };
                if (!known) {
                    throw new IllegalStateException("schema-fields.txt: " + t.name() + "." + f.name() + " refers to "
                            + f.ref() + ", which it does not define as it should");
                }
            }
        }
        for (Map.Entry<String, List<String>> u : UNIONS.entrySet()) {
            for (String m : u.getValue()) {
                if (!TABLES.containsKey(m)) {
                    throw new IllegalStateException("schema-fields.txt: union " + u.getKey() + " names table " + m
                            + ", which it does not define");
                }
            }
        }
    }

    private TfliteSchema() {
    }

    private static Field field(int id, String name, String kind) {
        if (kind.equals("str")) {
            return new Field(id, name, Kind.STRING, 0, 4, "");
        }
        if (kind.equals("buf")) {
            return new Field(id, name, Kind.BUFFER_INDEX, 4, 4, "");
        }
        if (kind.equals("[buf")) {
            return new Field(id, name, Kind.BUFFER_INDICES, 4, 4, "");
        }
        if (kind.equals("pos")) {
            return new Field(id, name, Kind.FILE_POSITION, 8, 8, "");
        }
        if (kind.matches("u[1248]")) {
            return new Field(id, name, Kind.SCALAR, kind.charAt(1) - '0', kind.charAt(1) - '0', "");
        }
        if (kind.matches("\\[[1248](/[0-9]+)?")) {
            int size = kind.charAt(1) - '0';
            int align = kind.length() > 2 ? Integer.parseInt(kind.substring(3)) : size;
            return new Field(id, name, Kind.SCALARS, size, Math.max(align, size), "");
        }
        if (kind.startsWith("<") && kind.endsWith(">")) {
            return new Field(id, name, Kind.UNION, 0, 4, kind.substring(1, kind.length() - 1));
        }
        if (kind.matches("\\[?[A-Z][A-Za-z0-9]*")) {
            boolean vector = kind.startsWith("[");
            return new Field(id, name, vector ? Kind.TABLES : Kind.TABLE, 0, 4, vector ? kind.substring(1) : kind);
        }
        throw new IllegalStateException("schema-fields.txt: field " + name + " has kind " + kind
                + ", which is none of u1 u2 u4 u8 [1 [2 [4 [8 str buf [buf pos <Union> Name [Name");
    }

    /** The table type of this name; a name the schema does not define is a bug of the caller. */
    static TableType table(String name) {
        TableType t = TABLES.get(name);
        if (t == null) {
            throw new IllegalArgumentException("the TFLite schema has no table " + name);
        }
        return t;
    }

    /** The table that type code {@code type} (1 for the first member) of union {@code union} holds, if any. */
    static Optional<String> member(String union, int type) {
        List<String> members = UNIONS.get(union);
        if (members == null) {
            throw new IllegalArgumentException("the TFLite schema has no union " + union);
        }
        return type >= 1 && type <= members.size() ? Optional.of(members.get(type - 1)) : Optional.empty();
    }

    /** Every table type, in the order of the schema. */
    static List<TableType> tables() {
        return List.copyOf(TABLES.values());
    }

    /** Every union's name. */
    static List<String> unions() {
        return List.copyOf(UNIONS.keySet());
    }
}
