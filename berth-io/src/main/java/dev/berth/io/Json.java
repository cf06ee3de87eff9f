package dev.berth.io;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.berth.arith.Sizes;
import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.io.model.FileErrors;

import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Strict reading of Berth's JSON files: duplicate keys, unknown keys, wrong types, fractions
 * and out-of-range numbers are all {@code invalid-input} naming the field's path.
 */
public final class Json {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // keep 20.0 as 20.0 so that a rejection quotes the text given, not 2E+1
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNumberLength(64).maxNestingDepth(64).maxStringLength(1 << 20).build());
    }

    /**
     * Reads one value of a document as a tree (the part of a streamed file that is small), numbers
     * as {@link #MAPPER} reads them. A duplicate key in it fails the tree's building: the streaming
     * parser ({@link #open}) does not look for duplicates itself.
     */
    private static final ObjectReader SUBTREE = MAPPER.readerFor(JsonNode.class)
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    private Json() {
    }

    /**
     * A strict parser over a file, for the readers that stream it ({@link WorkloadJson},
     * {@link PlanJson}). It reports problems as Jackson or I/O exceptions; a reader that gets
     * one, or finds an error of its own, reads the file again with {@link #read}, whose answer
     * (a syntax error anywhere in the file outranks an error in a field) is the one it gives.
     *
     * <p>It does not look for duplicate keys: Jackson's check keeps a hash set of every object's
     * names after its second, which for a million buffers of four members each is a million sets
     * (a tenth of the time of reading). The readers find a second value of a member they keep
     * ({@link TopLevel}, {@link Members}: any other key is an error already), a value read as a
     * tree fails on one ({@link #subtree}), and either way the file is read again by {@link #read},
     * whose parser reports the duplicate as it always did.
     */
    static JsonParser open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        try {
            return streaming(MAPPER.createParser(in));
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** {@code p}, before its first token, made the parser {@link #open} gives: no duplicate-key check of its own. */
    static JsonParser streaming(JsonParser p) {
        return p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /** A second value of {@code key} in one object of a streamed file: an error, which the reading of the tree names. */
    static JsonParseException duplicate(JsonParser p, String key) {
        return new JsonParseException(p, "duplicate key " + key + " (the file is read again as a tree, which reports it)");
    }

    /** A parser over a tree already read: the same tokens, and the same errors, as over its file. */
    static JsonParser traverse(JsonNode root) {
        return root.traverse(MAPPER);
    }

    /** The value at the parser's current token as a tree; the parser is left at its last token. */
    static JsonNode subtree(JsonParser p) throws IOException {
        return SUBTREE.readTree(p);
    }

    /** After the top-level value: the document must end (as {@link #parse} requires of a whole file). */
    static void requireEnd(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t != null) {
            throw new JsonParseException(p, "trailing token " + t + " after the top-level value");
        }
    }

    /** Reads a whole JSON file; a missing or unreadable file or bad syntax is {@code invalid-input}. */
    public static JsonNode read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString());
        } catch (IOException e) {
            throw FileErrors.cannotRead(file, file.toString(), e);
        }
    }

    public static JsonNode parse(InputStream in, String what) throws IOException {
        try {
            JsonNode n = MAPPER.readTree(in);
            if (n == null || n.isMissingNode()) {
                throw Require.invalid(what, "the file is empty, expected a JSON object");
            }
            return n;
        } catch (JsonParseException e) {
            throw Require.invalid(what, "not valid JSON at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage());
        } catch (MismatchedInputException e) {
            // FAIL_ON_TRAILING_TOKENS: the one mismatch a tree read has; Jackson's message names its classes
            JsonLocation at = e.getLocation();
            throw Require.invalid(what, "not valid JSON: more text after the top-level value"
                    + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr())
                    + " (a file holds one JSON object)");
        } catch (JacksonException e) {
            throw Require.invalid(what, "not valid JSON: " + e.getOriginalMessage());
        } catch (NumberFormatException | ArithmeticException e) {
            // a number Jackson cannot hold even as a BigDecimal (an exponent of 20 digits): not a
            // JacksonException, but bad input all the same
            throw Require.invalid(what, "a number in the file cannot be read: " + e.getMessage());
        } catch (CharConversionException e) {
            // bytes that are not text in the encoding Jackson detected (UTF-8, -16 or -32, from the first bytes)
            throw Require.invalid(what, "not JSON text: " + e.getMessage());
        }
    }

    static JsonNode object(JsonNode n, String path, Set<String> allowed, Set<String> required) {
        if (n == null || !n.isObject()) {
            throw Require.invalid(path, text(n), "expected a JSON object, got " + kind(n));
        }
        Iterator<String> it = n.fieldNames();
        while (it.hasNext()) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw unknownKey(path, k, allowed);
            }
        }
        String missing = firstMissing(required, n::has);
        if (missing != null) {
            throw missingKey(path, missing);
        }
        return n;
    }

    /** The first key of an object (in the file's order) that is not allowed. */
    static BerthException unknownKey(String path, String k, Set<String> allowed) {
        return Require.invalid(join(path, k), k, "unknown key '" + k + "' (allowed: "
                + String.join(", ", new TreeSet<>(allowed)) + ")");
    }

    /**
     * Of the required keys an object lacks, the one an error names: the first in alphabetical
     * order, so that the same file always gets the same message; null when none is missing.
     */
    static String firstMissing(Set<String> required, Predicate<String> present) {
        String first = null;
        for (String k : required) {
            if (!present.test(k) && (first == null || k.compareTo(first) < 0)) {
                first = k;
            }
        }
        return first;
    }

    static BerthException missingKey(String path, String k) {
        return Require.invalid(join(path, k), "required key '" + k + "' is missing");
    }

    /**
     * A file's top-level object: {@code what} names the file when it is not an object; its keys
     * are named by themselves ("buffers", not "workload file.buffers").
     */
    static JsonNode root(JsonNode n, String what, Set<String> allowed, Set<String> required) {
        if (n == null || !n.isObject()) {
            throw Require.invalid(what, text(n), "expected a JSON object, got " + kind(n));
        }
        return object(n, "", allowed, required);
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    static String string(JsonNode n, String path) {
        if (n == null || !n.isTextual()) {
            throw Require.invalid(path, text(n), "expected a string, got " + kind(n));
        }
        return n.textValue();
    }

    /** A name: a string that is not empty, refused at its own path ({@code buffers[3].name}). */
    static String name(JsonNode n, String path) {
        return nonEmpty(string(n, path), path);
    }

    static String nonEmpty(String name, String path) {
        if (name.isEmpty()) {
            throw Require.invalid(path, name, "must not be empty");
        }
        return name;
    }

    /** A size, offset or address (contract §2): a JSON integer or a string. */
    static long size(JsonNode n, String path) {
        if (n != null && n.isTextual()) {
            return Sizes.parse(n.textValue(), path);
        }
        if (n != null && n.isIntegralNumber()) {
            return Sizes.fromInteger(n.bigIntegerValue(), path);
        }
        if (n != null && n.isNumber()) {
            throw Require.invalid(path, n.toString(), "'" + n + "' is not a whole number of bytes "
                    + "(no fractions or exponents)");
        }
        throw Require.invalid(path, text(n), "expected a size (integer or string such as \"4KiB\"), got "
                + kind(n));
    }

    /** A count or a cost ({@code accesses}, {@code accessCost}): a JSON integer in 0..2^63-1, no units. */
    static long count(JsonNode n, String path, String what) {
        if (n == null || !n.isIntegralNumber() || n.bigIntegerValue().signum() < 0
                || n.bigIntegerValue().bitLength() > 63) {
            throw Require.invalid(path, text(n), "expected a whole number in 0..2^63-1 (" + what
                    + "), got " + (n != null && n.isNumber() ? "'" + n + "'" : kind(n)));
        }
        return n.longValue();
    }

    /** A step number or small count: a JSON integer in {@code min..2^31-1}. */
    static int integer(JsonNode n, String path, int min) {
        if (n == null || !n.isIntegralNumber()) {
            throw Require.invalid(path, text(n), "expected a whole number, got " + kind(n));
        }
        BigInteger v = n.bigIntegerValue();
        if (v.compareTo(BigInteger.valueOf(min)) < 0
                || v.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0) {
            throw Require.invalid(path, v.toString(), v + " is outside " + min + ".." + Integer.MAX_VALUE);
        }
        return v.intValue();
    }

    static List<JsonNode> array(JsonNode n, String path) {
        if (n == null || !n.isArray()) {
            throw Require.invalid(path, text(n), "expected a JSON array, got " + kind(n));
        }
        List<JsonNode> out = new ArrayList<>();
        n.forEach(out::add);
        return out;
    }

    /** A JSON array of strings (names), each checked at its path {@code p[j]}. */
    static List<String> strings(JsonNode n, String p) {
        List<JsonNode> a = array(n, p);
        List<String> out = new ArrayList<>(a.size());
        for (int j = 0; j < a.size(); j++) {
            out.add(string(a.get(j), p + "[" + j + "]"));
        }
        return out;
    }

    static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        return switch (n.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "the string \"" + n.textValue() + "\"";
            case NUMBER -> "the number " + n;
            case BOOLEAN -> "the boolean " + n;
            case NULL -> "null";
            default -> n.getNodeType().toString().toLowerCase(Locale.ROOT);
        };
    }

    static String text(JsonNode n) {
        return n == null ? "" : n.isTextual() ? n.textValue() : n.toString();
    }
}
