package dev.berth.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A file's top-level object, streamed: the large arrays are read element by element as they
 * come ({@link Members#elements}), every other key is kept as the small tree of its value, and
 * the first unknown key is noted. Its keys are checked as {@link Json#root} checks a tree's;
 * the reader then checks the values in its own order.
 */
final class TopLevel {
    /** Reads one streamed array at the parser's current token. */
    interface ArrayReader {
        Members.Elements<?> read(JsonParser p) throws IOException;
    }

    private final Map<String, JsonNode> values = new HashMap<>();
    private final Map<String, Members.Elements<?>> arrays = new HashMap<>();

    private TopLevel() {
    }

    /** Reads the whole document; {@code what} names the file when it is not an object. */
    static TopLevel read(JsonParser p, String what, Set<String> keys, Set<String> required,
                         Map<String, ArrayReader> streamed) throws IOException {
        JsonToken t = p.nextToken();
        if (t != JsonToken.START_OBJECT) {
            Json.root(t == null ? null : Json.subtree(p), what, keys, required);
        }
        TopLevel top = new TopLevel();
        String unknown = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String k = p.currentName();
            p.nextToken();
            ArrayReader array = streamed.get(k);
            if (top.has(k)) {
                throw Json.duplicate(p, k);
            }
            if (array != null) {
                top.arrays.put(k, array.read(p));
            } else if (keys.contains(k)) {
                top.values.put(k, Json.subtree(p));
            } else {
                if (unknown == null) {
                    unknown = k;
                }
                p.skipChildren();
            }
        }
        Json.requireEnd(p);
        if (unknown != null) {
            throw Json.unknownKey("", unknown, keys);
        }
        String missing = Json.firstMissing(required, k -> top.values.containsKey(k) || top.arrays.containsKey(k));
        if (missing != null) {
            throw Json.missingKey("", missing);
        }
        return top;
    }

    boolean has(String key) {
        return values.containsKey(key) || arrays.containsKey(key);
    }

    /** The value of a key that is not streamed, null when absent. */
    JsonNode value(String key) {
        return values.get(key);
    }

    /** A streamed array's elements (none when absent), or the first error of its elements. */
    @SuppressWarnings("unchecked")
    <T> List<T> elements(String key) {
        Members.Elements<?> e = arrays.get(key);
        return e == null ? List.of() : (List<T>) e.checked(key);
    }
}
