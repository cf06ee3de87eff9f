package dev.berth.io;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.failure.Failure;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The JSON error object of contract §7: {@code {"error": {...}}}. */
public final class FailureJson {
    private FailureJson() {
    }

    public static String toJson(Failure f) {
        return toJson(f.fields());
    }

    public static String toJson(Map<String, Object> fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = PlanJson.generator(out)) {
            g.writeStartObject();
            g.writeFieldName("error");
            g.writeObject(fields);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
