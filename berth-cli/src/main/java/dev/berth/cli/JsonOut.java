package dev.berth.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.io.PlanJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Prints one JSON document on stdout, the way Berth prints all its JSON. */
final class JsonOut {
    /** Writes the document's content. */
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private JsonOut() {
    }

    static void print(PrintWriter out, Body body) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (JsonGenerator g = PlanJson.generator(buf)) {
            body.write(g);
        }
        out.println(buf.toString(StandardCharsets.UTF_8));
    }
}
