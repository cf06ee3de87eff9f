package dev.berth.io.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.io.Json;
import dev.berth.io.TargetJson;
import dev.berth.target.Target;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Turns fuzzer bytes into what the readers take, the way the command line does. */
final class FuzzInputs {
    /** The default target of the command line, which the planning fuzz targets plan on. */
    static final Target NPU_REF = TargetJson.load("npu-ref");

    private FuzzInputs() {
    }

    /** The bytes parsed as a JSON document by Berth's strict parser (so bad syntax is invalid-input). */
    static JsonNode json(byte[] bytes, String what) {
        try {
            return Json.parse(new ByteArrayInputStream(bytes), what);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
