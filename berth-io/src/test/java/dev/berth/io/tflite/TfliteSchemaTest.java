package dev.berth.io.tflite;

import com.google.flatbuffers.FlatBufferBuilder;
import com.google.flatbuffers.Table;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Berth's field table of the TFLite schema ({@code schema-fields.txt}) against the classes flatc
 * generated from an older schema ({@code org.tensorflow.lite.schema}, tensorflow-lite-metadata
 * 0.4.4): for every field those classes write, its id, what it holds and its bytes are found by
 * calling the generated {@code addX} (or {@code createXVector}) on a builder and reading the
 * table it made; the same field of Berth's table must agree. Every union member's type code must
 * be the generated constant's. Fields of the newer schema (and deprecated ones, which flatc does
 * not generate) are only in Berth's table.
 */
class TfliteSchemaTest {
    private static final String PACKAGE = "org.tensorflow.lite.schema.";

    private static String camel(String snake) {
        StringBuilder sb = new StringBuilder();
        boolean up = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return sb.toString();
    }

    private static String capital(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static Optional<Method> method(Class<?> c, String name, Class<?>... params) {
        try {
            return Optional.of(c.getMethod(name, params));
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        }
    }

    private static Object allOnes(Class<?> type) {
        if (type == byte.class) {
            return (byte) -1;
        } else if (type == short.class) {
            return (short) -1;
        } else if (type == int.class) {
            return -1;
        } else if (type == long.class) {
            return -1L;
        } else if (type == boolean.class) {
            return true;
        } else if (type == float.class) {
            return Float.intBitsToFloat(-1);
        } else if (type == double.class) {
            return Double.longBitsToDouble(-1L);
        }
        throw new AssertionError(type);
    }

    /** The field a generated {@code addX(builder, value)} writes: its id and the non-zero bytes it holds. */
    private record Written(int id, int bytes) {
    }

    private static Written written(Method add, Object value) throws Exception {
        FlatBufferBuilder b = new FlatBufferBuilder(256);
        b.forceDefaults(true);
        b.startTable(64);
        add.invoke(null, b, value);
        b.finish(b.endTable());
        ByteBuffer bb = b.dataBuffer().order(ByteOrder.LITTLE_ENDIAN);
        int table = bb.position() + bb.getInt(bb.position());
        int vt = table - bb.getInt(table);
        int vsize = bb.getShort(vt);
        int tsize = bb.getShort(vt + 2);
        int id = -1;
        int at = 0;
        for (int slot = 4; slot < vsize; slot += 2) {
            if (bb.getShort(vt + slot) != 0) {
                assertThat(id).as(add + " writes one field").isEqualTo(-1);
                id = (slot - 4) / 2;
                at = table + bb.getShort(vt + slot);
            }
        }
        int n = 0;
        while (at + n < table + tsize && bb.get(at + n) != 0) {
            n++;
        }
        return new Written(id, n);
    }

    /** The bytes of one element of a scalar vector the generated {@code createXVector} writes. */
    private static int elementBytes(Method create) throws Exception {
        Class<?> element = create.getParameterTypes()[1].getComponentType();
        Object data = Array.newInstance(element, 1);
        Array.set(data, 0, allOnes(element));
        FlatBufferBuilder b = new FlatBufferBuilder(64);
        b.finish((int) create.invoke(null, b, data));
        ByteBuffer bb = b.dataBuffer().order(ByteOrder.LITTLE_ENDIAN);
        int start = bb.position() + bb.getInt(bb.position()) + 4;
        int n = 0;
        while (start + n < bb.capacity() && bb.get(start + n) != 0) {
            n++;
        }
        return n;
    }

    /** What the generated accessors say field {@code name} of {@code c} holds, in Berth's kinds. */
    private static String kindOf(Class<?> c, String name) throws Exception {
        String cap = capital(name);
        Optional<Method> length = method(c, name + "Length");
        if (length.isPresent()) {
            Class<?> element = c.getMethod(name, int.class).getReturnType();
            if (Table.class.isAssignableFrom(element)) {
                return "[" + element.getSimpleName();
            }
            Method create = null;
            for (Method m : c.getMethods()) {
                if (m.getName().equals("create" + cap + "Vector") && m.getParameterTypes()[1].isArray()
                        && m.getParameterTypes()[1].getComponentType().isPrimitive()) {
                    create = m;
                }
            }
            assertThat(create).as(c.getSimpleName() + "." + name + ": createVector").isNotNull();
            return "[" + elementBytes(create);
        }
        if (method(c, name, Table.class).isPresent()) {
            return "union";
        }
        Optional<Method> get = method(c, name);
        assertThat(get).as(c.getSimpleName() + "." + name).isPresent();
        Class<?> type = get.get().getReturnType();
        if (type == String.class) {
            return "str";
        }
        if (Table.class.isAssignableFrom(type)) {
            return type.getSimpleName();
        }
        return "scalar";
    }

    private static String kindOf(TfliteSchema.Field f) {
        return switch (f.kind()) {
            case SCALARS, BUFFER_INDICES -> "[" + f.size();
            case TABLES -> "[" + f.ref();
            case TABLE -> f.ref();
            case STRING -> "str";
            case UNION -> "union";
            default -> "scalar";
        };
    }

    @Test
    void everyFieldTheGeneratedClassesWriteIsBerthsFieldOfThatId() throws Exception {
        int tables = 0;
        int fields = 0;
        List<String> absent = new ArrayList<>();
        for (TfliteSchema.TableType t : TfliteSchema.tables()) {
            Class<?> c;
            try {
                c = Class.forName(PACKAGE + t.name());
            } catch (ClassNotFoundException e) {
                absent.add(t.name());
                continue;
            }
            tables++;
            for (Method add : c.getMethods()) {
                if (!Modifier.isStatic(add.getModifiers()) || !add.getName().startsWith("add")
                        || add.getParameterCount() != 2 || add.getParameterTypes()[0] != FlatBufferBuilder.class) {
                    continue;
                }
                String name = Character.toLowerCase(add.getName().charAt(3)) + add.getName().substring(4);
                Class<?> param = add.getParameterTypes()[1];
                String kind = kindOf(c, name);
                Written w = written(add, kind.equals("scalar") ? allOnes(param) : Integer.valueOf(0));
                String where = t.name() + "." + name;
                assertThat(w.id()).as(where + ": its id").isBetween(0, t.fields().size() - 1);
                TfliteSchema.Field f = t.fields().get(w.id());
                assertThat(camel(f.name())).as(where + ": Berth's field " + w.id()).isEqualTo(name);
                assertThat(kindOf(f)).as(where + ": what it holds").isEqualTo(kind);
                if (kind.equals("scalar")) {
                    int bytes = param == float.class ? 4 : param == double.class ? 8 : w.bytes();
                    assertThat(f.inlineSize()).as(where + ": its bytes").isEqualTo(bytes);
                }
                fields++;
            }
        }
        assertThat(tables).as("tables the generated classes have").isGreaterThanOrEqualTo(140);
        assertThat(fields).as("fields checked").isGreaterThanOrEqualTo(200);
        assertThat(absent).as("tables of the newer schema only").allMatch(n -> n.startsWith("Stablehlo")
                || n.startsWith("StableHLO") || List.of("BlockwiseQuantization", "MultiAxisQuantization", "DilateOptions",
                "ReduceWindowOptions", "ExternalBufferGroup", "ExternalBuffer").contains(n));
    }

    @Test
    void everyUnionMemberHasTheGeneratedTypeCode() throws Exception {
        int checked = 0;
        for (String u : TfliteSchema.unions()) {
            Class<?> c;
            try {
                c = Class.forName(PACKAGE + u);
            } catch (ClassNotFoundException e) {
                continue;
            }
            for (Field k : c.getFields()) {
                if (k.getType() == byte.class && Modifier.isStatic(k.getModifiers()) && !k.getName().equals("NONE")) {
                    int code = k.getByte(null) & 0xFF;
                    assertThat(TfliteSchema.member(u, code)).as(u + " " + code).contains(k.getName());
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(126);
        assertThat(TfliteSchema.member("BuiltinOptions", 0)).isEmpty();
    }

    @Test
    void theFieldsTheRewriteTreatsApartAreWhereTheSchemaHasThem() {
        assertThat(TfliteSchema.table("Buffer").fields()).extracting(TfliteSchema.Field::name, TfliteSchema.Field::kind,
                TfliteSchema.Field::align).containsExactly(
                org.assertj.core.groups.Tuple.tuple("data", TfliteSchema.Kind.SCALARS, 16),
                org.assertj.core.groups.Tuple.tuple("offset", TfliteSchema.Kind.FILE_POSITION, 8),
                org.assertj.core.groups.Tuple.tuple("size", TfliteSchema.Kind.FILE_POSITION, 8));
        assertThat(TfliteSchema.table("Tensor").fields().get(2).kind()).isEqualTo(TfliteSchema.Kind.BUFFER_INDEX);
        assertThat(TfliteSchema.table("Metadata").fields().get(1).kind()).isEqualTo(TfliteSchema.Kind.BUFFER_INDEX);
        assertThat(TfliteSchema.table("Model").fields().get(5).kind()).isEqualTo(TfliteSchema.Kind.BUFFER_INDICES);
        assertThat(TfliteSchema.table("Operator").fields()).filteredOn(f -> f.kind() == TfliteSchema.Kind.FILE_POSITION)
                .extracting(TfliteSchema.Field::name)
                .containsExactly("large_custom_options_offset", "large_custom_options_size");
        assertThat(TfliteSchema.table("CustomQuantization").fields().get(0).align()).isEqualTo(16);
        assertThat(TfliteSchema.table("Uint16Vector").fields().get(0).align()).isEqualTo(4);
    }
}
