package dev.berth.io;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.berth.arith.Sizes;
import dev.berth.failure.BerthException;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The members of one element of a streamed array of objects ({@code buffers[i]}), read from a
 * parser without a tree: strings, whole numbers that fit in a long and pairs of steps as they
 * are, anything else as the small tree of that one value. One instance is reused element after
 * element, so a million elements cost no object per member.
 *
 * <p>The checks ask for members in the order the reader checks them, not the file's, and every
 * rejection is made by {@link Json}'s checks of a tree holding what the file holds, so an element
 * gets the error (category, path and message) it got when the whole file was read as a tree.
 */
final class Members {
    private static final int ABSENT = 0;
    private static final int TEXT = 1;
    private static final int WHOLE = 2;
    /** {@code [a, b]} with both in 0..2^31-1. */
    private static final int PAIR = 3;
    private static final int NODE = 4;

    private final String array;
    private final List<String> keys;
    private final Set<String> allowed;
    private final Set<String> required;
    private final int[] kind;
    private final String[] text;
    private final long[] whole;
    private final long[] second;
    private final JsonNode[] node;
    private int index;
    private JsonNode notObject;
    private String unknown;

    /**
     * Elements of the array {@code array} with members {@code keys} (their indices are the
     * readers' member numbers), of which {@code required} must be present.
     */
    Members(String array, List<String> keys, Set<String> required) {
        this.array = array;
        this.keys = List.copyOf(keys);
        this.allowed = Set.copyOf(keys);
        this.required = required;
        int n = keys.size();
        kind = new int[n];
        text = new String[n];
        whole = new long[n];
        second = new long[n];
        node = new JsonNode[n];
    }

    /** A streamed array of elements: those read, and the first element's error (or null), or what stood instead of an array. */
    record Elements<T>(List<T> read, JsonNode notArray, BerthException error) {
        /** The elements, or the error the tree reading gave first: not an array, then the first bad element. */
        List<T> checked(String path) {
            if (notArray != null) {
                Json.array(notArray, path);
            }
            if (error != null) {
                throw error;
            }
            return read;
        }
    }

    /** What one element becomes, or a {@link BerthException} saying why not. */
    interface Element<T> {
        T read(Members m);
    }

    /**
     * Reads the array at the parser's current token element by element (the parser is left at
     * its end); after an element's error the rest is skipped.
     */
    static <T> Elements<T> elements(JsonParser p, Members m, Element<T> element) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            return new Elements<>(List.of(), Json.subtree(p), null);
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
            m.read(p, i);
            try {
                out.add(element.read(m));
            } catch (BerthException e) {
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    p.skipChildren();
                }
                return new Elements<>(out, null, e);
            }
        }
        return new Elements<>(out, null, null);
    }

    /** Reads element {@code index}; the parser is at its first token and is left at its last. */
    void read(JsonParser p, int index) throws IOException {
        this.index = index;
        Arrays.fill(kind, ABSENT);
        Arrays.fill(text, null);
        Arrays.fill(node, null);
        notObject = null;
        unknown = null;
        if (p.currentToken() != JsonToken.START_OBJECT) {
            notObject = Json.subtree(p);
            return;
        }
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String k = p.currentName();
            int m = keys.indexOf(k);
            if (m >= 0 && kind[m] != ABSENT) {
                throw Json.duplicate(p, k);
            }
            t = p.nextToken();
            if (m < 0) {
                if (unknown == null) {
                    unknown = k;
                }
                p.skipChildren();
                continue;
            }
            if (t == JsonToken.VALUE_STRING) {
                kind[m] = TEXT;
                text[m] = p.getText();
            } else if (t == JsonToken.VALUE_NUMBER_INT && fitsLong(p)) {
                kind[m] = WHOLE;
                whole[m] = p.getLongValue();
            } else if (t == JsonToken.START_ARRAY) {
                array(p, m);
            } else {
                kind[m] = NODE;
                node[m] = Json.subtree(p);
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new JsonParseException(p, "unexpected token " + t + " in an object");
        }
    }

    private static boolean fitsLong(JsonParser p) throws IOException {
        JsonParser.NumberType nt = p.getNumberType();
        return nt == JsonParser.NumberType.INT || nt == JsonParser.NumberType.LONG
                || (nt == JsonParser.NumberType.BIG_INTEGER && p.getBigIntegerValue().bitLength() < 64);
    }

    private static boolean isStep(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || !fitsLong(p)) {
            return false;
        }
        long v = p.getLongValue();
        return v >= 0 && v <= Integer.MAX_VALUE;
    }

    /** An array: two steps as a pair, anything else as the tree the file's array is. */
    private void array(JsonParser p, int m) throws IOException {
        long[] got = new long[2];
        int k = 0;
        JsonToken t = p.nextToken();
        while (k < 2 && isStep(p)) {
            got[k++] = p.getLongValue();
            t = p.nextToken();
        }
        if (k == 2 && t == JsonToken.END_ARRAY) {
            kind[m] = PAIR;
            whole[m] = got[0];
            second[m] = got[1];
            return;
        }
        ArrayNode a = Json.MAPPER.getNodeFactory().arrayNode();
        for (int i = 0; i < k; i++) {
            a.add(BigInteger.valueOf(got[i]));
        }
        while (t != JsonToken.END_ARRAY) {
            a.add(Json.subtree(p));
            t = p.nextToken();
        }
        kind[m] = NODE;
        node[m] = a;
    }

    /** The element's path, {@code array[index]}. */
    String path() {
        return array + "[" + index + "]";
    }

    /** A member's path, {@code array[index].key}. */
    String path(int m) {
        return path() + "." + keys.get(m);
    }

    /** The element is an object, its keys are allowed, the required ones are there; else the error {@link Json#object} gives. */
    void check() {
        if (notObject != null) {
            Json.object(notObject, path(), allowed, required);
        }
        if (unknown != null) {
            throw Json.unknownKey(path(), unknown, allowed);
        }
        String missing = Json.firstMissing(required, k -> kind[keys.indexOf(k)] != ABSENT);
        if (missing != null) {
            throw Json.missingKey(path(), missing);
        }
    }

    boolean has(int m) {
        return kind[m] != ABSENT;
    }

    /** True when the member is a JSON string. */
    boolean isText(int m) {
        return kind[m] == TEXT;
    }

    /** The member as the tree the file holds (null when absent), for the checks and messages of {@link Json}. */
    JsonNode node(int m) {
        return switch (kind[m]) {
            case ABSENT -> null;
            case TEXT -> TextNode.valueOf(text[m]);
            case WHOLE -> BigIntegerNode.valueOf(BigInteger.valueOf(whole[m]));
            case PAIR -> Json.MAPPER.getNodeFactory().arrayNode().add(BigInteger.valueOf(whole[m]))
                    .add(BigInteger.valueOf(second[m]));
            default -> node[m];
        };
    }

    /** As {@link Json#string}. */
    String string(int m) {
        return kind[m] == TEXT ? text[m] : Json.string(node(m), path(m));
    }

    /** As {@link Json#size}. */
    long size(int m) {
        if (kind[m] == TEXT) {
            return Sizes.parse(text[m], path(m));
        }
        if (kind[m] == WHOLE && whole[m] >= 0) {
            return whole[m];
        }
        return Json.size(node(m), path(m));
    }

    /** As {@link Json#count}. */
    long count(int m, String what) {
        if (kind[m] == WHOLE && whole[m] >= 0) {
            return whole[m];
        }
        return Json.count(node(m), path(m), what);
    }

    /** As {@link Json#integer}. */
    int integer(int m, int min) {
        if (kind[m] == WHOLE && whole[m] >= min && whole[m] <= Integer.MAX_VALUE) {
            return (int) whole[m];
        }
        return Json.integer(node(m), path(m), min);
    }

    /** True when the member is {@code [first, last]}: two steps, {@code first <= last}. */
    boolean isLifetime(int m) {
        return kind[m] == PAIR && whole[m] <= second[m];
    }

    int first(int m) {
        return (int) whole[m];
    }

    int last(int m) {
        return (int) second[m];
    }
}
