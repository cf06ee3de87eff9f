package dev.berth.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.failure.InputDetail;
import dev.berth.failure.Shortfall;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The error object of contract §7 as JSON: {@code {"error": {...}}}, fields in order, numbers as numbers. */
class FailureJsonTest {
    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void theTeachingCaseAsJson() throws Exception {
        Facts facts = Facts.NONE.withBuffer("t1").withSpace("local").withStart(30).withRequested(21).withReserved(30)
                .withAlignment(10).withLimit(55, "space local: capacity 55");
        String json = FailureJson.toJson(new Failure.CapacityExceeded("21 bytes \"requested\"\nreserve 30", facts,
                new Shortfall.LiveBytesExceed(1, 60, 55)));
        JsonNode root = M.readTree(json);
        assertThat(names(root)).containsExactly("error");
        JsonNode e = root.get("error");
        assertThat(names(e)).containsExactly("category", "message", "buffer", "space", "start", "requested", "reserved",
                "alignment", "limit", "limitSource", "provablyInfeasible", "step");
        assertThat(e.get("message").asText()).isEqualTo("21 bytes \"requested\"\nreserve 30");
        for (String n : List.of("start", "requested", "reserved", "alignment", "limit", "step")) {
            assertThat(e.get(n).isIntegralNumber()).as(n).isTrue();
        }
        assertThat(e.get("provablyInfeasible").isBoolean()).isTrue();
        assertThat(e.get("limit").asLong()).isEqualTo(55);
    }

    @Test
    void invalidInputCarriesPathAndText() throws Exception {
        JsonNode e = M.readTree(FailureJson.toJson(new Failure.InvalidInput("spaces.global.capacity: no",
                new InputDetail.Given("spaces.global.capacity", "1GiB")))).get("error");
        assertThat(names(e)).containsExactly("category", "message", "path", "text");
        assertThat(e.get("category").asText()).isEqualTo("invalid-input");
        assertThat(e.get("path").asText()).isEqualTo("spaces.global.capacity");
    }

    @Test
    void largeNumbersStayExact() throws Exception {
        JsonNode e = M.readTree(FailureJson.toJson(new Failure.AddressNotEncodable("m",
                Facts.NONE.withStart(Long.MAX_VALUE).withLimit(0xFFFF_FFFFL, "format dma32")))).get("error");
        assertThat(e.get("start").asLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(e.get("start").asText()).isEqualTo("9223372036854775807");
    }

    private static List<String> names(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
