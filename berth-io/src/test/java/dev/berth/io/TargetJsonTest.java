package dev.berth.io;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Contract §4: the target file, read strictly. Every bad input is invalid-input naming its path. */
class TargetJsonTest {
    /** A sound target to break one key at a time (single quotes stand for double quotes). */
    private static final String GOOD = """
            { 'target': 't',
              'formats': { 'dma32': { 'maxAddress': '0xFFFF_FFFF', 'end': 'exclusive' },
                           'sram20': { 'maxAddress': '0xF_FFFF', 'end': 'last-byte' } },
              'spaces': {
                'global':  { 'kind': 'logical',  'format': 'dma32',  'alignment': 64 },
                'sram':    { 'kind': 'local',    'format': 'sram20', 'alignment': 32, 'capacity': '256KiB' },
                'weights': { 'kind': 'external', 'format': 'dma32',  'alignment': 64, 'base': '0x8000_0000' } },
              'generation': {
                'descriptor':  { 'space': 'global', 'bytes': 32, 'alignment': 32, 'addressFormat': 'dma32' },
                'instruction': { 'space': 'global', 'bytesPerStep': 16, 'alignment': 16 } } }
            """;

    static Target parse(String json) {
        try {
            return TargetJson.read(Json.parse(new ByteArrayInputStream(json.replace('\'', '"')
                    .getBytes(StandardCharsets.UTF_8)), "t.json"), "t");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #GOOD} with one literal piece replaced; the replacement must happen. */
    static String good(String from, String to) {
        assertThat(GOOD).contains(from);
        return GOOD.replace(from, to);
    }

    static Failure.InvalidInput rejected(String json) {
        BerthException e = catchThrowableOfType(BerthException.class, () -> parse(json));
        assertThat(e).as("must be rejected: %s", json).isNotNull();
        assertThat(e.category()).as(e.getMessage()).isEqualTo(Category.INVALID_INPUT);
        return (Failure.InvalidInput) e.failure();
    }

    @Test
    void anAccessCostIsAWholeNumberPerSpaceDefaultZeroForLocalOneOtherwise() throws IOException {
        Target t = parse(GOOD);
        assertThat(t.spaces().get("sram").accessCost()).isZero();
        assertThat(t.spaces().get("global").accessCost()).isEqualTo(1);
        assertThat(t.spaces().get("weights").accessCost()).isEqualTo(1);
        Target c = parse(good("'capacity': '256KiB' }", "'capacity': '256KiB', 'accessCost': 2 }")
                .replace("'alignment': 64 },", "'alignment': 64, 'accessCost': 9 },"));
        assertThat(c.spaces().get("sram").accessCost()).isEqualTo(2);
        assertThat(c.spaces().get("global").accessCost()).isEqualTo(9);
        assertThat(c.spaces().get("sram").capacity()).isEqualTo(OptionalLong.of(256 * 1024));
        // written back only where it is not the default, and read back the same
        StringWriter w = new StringWriter();
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(w)) {
            TargetJson.write(g, c);
        }
        assertThat(w.toString()).contains("\"accessCost\":2").contains("\"accessCost\":9").doesNotContain("\"accessCost\":1");
        assertThat(TargetJson.read(Json.MAPPER.readTree(w.toString()), "t")).isEqualTo(c);
        for (String bad : new String[]{"-1", "'2'", "1.5", "9223372036854775808"}) {
            Failure.InvalidInput f = rejected(good("'capacity': '256KiB' }", "'capacity': '256KiB', 'accessCost': " + bad + " }"));
            assertThat(f.path()).contains("spaces.sram.accessCost");
        }
    }

    @Test
    void theSoundTargetReadsAsWritten() {
        Target t = parse(GOOD);
        assertThat(t.name()).isEqualTo("t");
        assertThat(t.formats().get("dma32").maxAddress()).isEqualTo(0xFFFF_FFFFL);
        assertThat(t.formats().get("sram20").end()).isEqualTo(EndConvention.LAST_BYTE);
        assertThat(t.spaces().get("global")).isInstanceOf(Space.Logical.class);
        assertThat(t.spaces().get("global").capacity()).isEqualTo(OptionalLong.empty());
        assertThat(t.spaces().get("sram").capacity()).isEqualTo(OptionalLong.of(256 * 1024));
        assertThat(t.spaces().get("weights").base()).isEqualTo(0x8000_0000L);
        Generation g = t.generation().orElseThrow();
        assertThat(g.descriptor().orElseThrow().addressFormat()).isEqualTo(Optional.of("dma32"));
        assertThat(g.instruction().orElseThrow().bytesPerStep()).isEqualTo(16);
    }

    @Test
    void defaultsAreTheContracts() {
        Target t = parse("{ 'formats': { 'f': { 'maxAddress': 100 } }, 'spaces': { 's': { 'kind': 'logical', 'format': 'f' } } }");
        assertThat(t.name()).isEqualTo("t"); // the file name
        assertThat(t.formats().get("f").end()).isEqualTo(EndConvention.EXCLUSIVE);
        assertThat(t.spaces().get("s").alignment()).isEqualTo(1);
        assertThat(t.spaces().get("s").runtimeReserve()).isZero();
        assertThat(t.generation()).isEmpty();
    }

    /** (json, path the failure must name, a piece of the message). */
    static Stream<Arguments> invalidTargets() {
        return Stream.of(
                // unknown keys at every level, with their path
                Arguments.of(good("{ 'target': 't',", "{ 'target': 't', 'colour': 'red',"), "colour", "unknown key"),
                Arguments.of(good("'maxAddress': '0xF_FFFF'", "'maxAdress': '0xF_FFFF'"), "formats.sram20.maxAdress",
                        "unknown key"),
                Arguments.of(good("'capacity': '256KiB'", "'capcity': '256KiB'"), "spaces.sram.capcity", "unknown key"),
                Arguments.of(good("'generation': {", "'generation': { 'tiles': {},"), "generation.tiles", "unknown key"),
                Arguments.of(good("'bytes': 32,", "'byte': 32, 'bytes': 32,"), "generation.descriptor.byte",
                        "unknown key"),
                Arguments.of(good("'bytesPerStep': 16,", "'bytesPerStep': 16, 'perStep': 1,"),
                        "generation.instruction.perStep", "unknown key"),
                // capacity on a logical space, with the contract's message
                Arguments.of(good("'format': 'dma32',  'alignment': 64 },", "'format': 'dma32', 'alignment': 64, "
                        + "'capacity': '1GiB' },"), "spaces.global.capacity", "a logical space has no compile-time "
                        + "capacity; give the runtime's capacity to check-deploy"),
                // missing base, missing capacity; base where none belongs
                Arguments.of(good(", 'base': '0x8000_0000'", ""), "spaces.weights.base", "base"),
                Arguments.of(good(", 'capacity': '256KiB'", ""), "spaces.sram.capacity", "capacity"),
                Arguments.of(good("'format': 'dma32',  'alignment': 64 },", "'format': 'dma32', 'alignment': 64, "
                        + "'base': 4096 },"), "spaces.global.base", "external"),
                Arguments.of(good("'capacity': '256KiB'", "'capacity': '256KiB', 'base': 0"), "spaces.sram.base",
                        "external"),
                // references
                Arguments.of(good("'format': 'sram20'", "'format': 'sram21'"), "spaces.sram.format", "sram21"),
                Arguments.of(good("'descriptor':  { 'space': 'global'", "'descriptor':  { 'space': 'nowhere'"),
                        "generation.descriptor.space", "nowhere"),
                Arguments.of(good("'instruction': { 'space': 'global'", "'instruction': { 'space': 'nowhere'"),
                        "generation.instruction.space", "nowhere"),
                Arguments.of(good("'addressFormat': 'dma32'", "'addressFormat': 'dma16'"),
                        "generation.descriptor.addressFormat", "dma16"),
                // enumerations
                Arguments.of(good("'end': 'last-byte'", "'end': 'inclusive'"), "formats.sram20.end", "inclusive"),
                Arguments.of(good("'end': 'last-byte'", "'end': 1"), "formats.sram20.end", "string"),
                Arguments.of(good("'kind': 'local'", "'kind': 'sram'"), "spaces.sram.kind", "'sram'"),
                Arguments.of(good("'kind': 'local'", "'kind': null"), "spaces.sram.kind", "null"),
                // runtimeReserve above capacity (local, and external with a capacity)
                Arguments.of(good("'capacity': '256KiB'", "'capacity': '256KiB', 'runtimeReserve': '257KiB'"),
                        "spaces.sram.runtimeReserve", "capacity"),
                Arguments.of(good("'base': '0x8000_0000'", "'base': '0x8000_0000', 'capacity': 100, 'runtimeReserve': 101"),
                        "spaces.weights.runtimeReserve", "capacity"),
                // zero or negative alignments
                Arguments.of(good("'alignment': 32, 'capacity'", "'alignment': 0, 'capacity'"), "spaces.sram.alignment",
                        "positive"),
                Arguments.of(good("'alignment': 32, 'capacity'", "'alignment': '0x0', 'capacity'"),
                        "spaces.sram.alignment", "positive"),
                Arguments.of(good("'alignment': 32, 'capacity'", "'alignment': -32, 'capacity'"),
                        "spaces.sram.alignment", "negative"),
                Arguments.of(good("'bytes': 32, 'alignment': 32", "'bytes': 32, 'alignment': 0"),
                        "generation.descriptor.alignment", "positive"),
                Arguments.of(good("'bytesPerStep': 16, 'alignment': 16", "'bytesPerStep': 16, 'alignment': 0"),
                        "generation.instruction.alignment", "positive"),
                // JSON numbers with a fraction or an exponent, sizes past 2^63-1, SI units
                Arguments.of(good("'maxAddress': '0xFFFF_FFFF'", "'maxAddress': 20.0"), "formats.dma32.maxAddress",
                        "20.0"),
                Arguments.of(good("'capacity': '256KiB'", "'capacity': 2e3"), "spaces.sram.capacity", "2E+3"), // Jackson keeps the value, not the spelling
                Arguments.of(good("'alignment': 64 },", "'alignment': 64.0 },"), "spaces.global.alignment", "64.0"),
                Arguments.of(good("'capacity': '256KiB'", "'capacity': '9000000TiB'"), "spaces.sram.capacity",
                        "9000000TiB"),
                Arguments.of(good("'capacity': '256KiB'", "'capacity': 9223372036854775808"), "spaces.sram.capacity",
                        "9223372036854775808"),
                Arguments.of(good("'capacity': '256KiB'", "'capacity': '256KB'"), "spaces.sram.capacity", "KiB"),
                Arguments.of(good("'base': '0x8000_0000'", "'base': -1"), "spaces.weights.base", "negative"),
                Arguments.of(good("'bytes': 32,", "'bytes': '1.5KiB',"), "generation.descriptor.bytes", "1.5KiB"),
                // missing required keys and wrong shapes
                Arguments.of(good("'maxAddress': '0xF_FFFF', ", ""), "formats.sram20.maxAddress", "missing"),
                Arguments.of(good("'kind': 'local',    ", ""), "spaces.sram.kind", "missing"),
                Arguments.of(good("'format': 'sram20', ", ""), "spaces.sram.format", "missing"),
                Arguments.of(good("'bytes': 32, ", ""), "generation.descriptor.bytes", "missing"),
                Arguments.of(good("'bytesPerStep': 16, ", ""), "generation.instruction.bytesPerStep", "missing"),
                Arguments.of("{ 'spaces': {} }", "formats", "missing"),
                Arguments.of("{ 'formats': {} }", "spaces", "missing"),
                Arguments.of("{ 'formats': [], 'spaces': {} }", "formats", "object"),
                Arguments.of(good("'sram20': { 'maxAddress': '0xF_FFFF', 'end': 'last-byte' }", "'sram20': 5"),
                        "formats.sram20", "object"),
                Arguments.of("[1, 2]", "target file", "object"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("invalidTargets")
    void invalidTargetsNameThePath(String json, String path, String inMessage) {
        Failure.InvalidInput f = rejected(json);
        assertThat(f.path()).as(f.message()).hasValue(path);
        assertThat(f.message()).contains(path).contains(inMessage);
    }

    @Test
    void duplicateKeysAreInvalid() {
        Failure.InvalidInput f = rejected(good("'kind': 'local',", "'kind': 'local', 'kind': 'logical',"));
        assertThat(f.message()).contains("Duplicate field 'kind'");
        f = rejected(good("'formats': {", "'formats': { 'dma32': { 'maxAddress': 1 },"));
        assertThat(f.message()).contains("Duplicate field 'dma32'");
    }

    @Test
    void brokenOrEmptyJsonIsInvalid() {
        assertThat(rejected("{ 'formats': ").message()).contains("not valid JSON");
        assertThat(rejected("").message()).contains("empty");
        assertThat(rejected(GOOD + " {}").message()).contains("t.json");
    }

    @Test
    void bundledTargetsLoadByNameAndAFileByPath(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Target npu = TargetJson.load("npu-ref");
        assertThat(npu.name()).isEqualTo("npu-ref");
        assertThat(npu.spaces().keySet()).containsExactly("global", "sram", "weights");
        assertThat(npu.spaces().get("sram").capacity()).isEqualTo(OptionalLong.of(256 * 1024));
        assertThat(npu.spaces().get("global").capacity()).isEqualTo(OptionalLong.empty());
        Target teaching = TargetJson.load("teaching");
        assertThat(teaching.formats().get("teach").maxAddress()).isEqualTo(29);
        assertThat(teaching.formats().get("teach").end()).isEqualTo(EndConvention.EXCLUSIVE);
        assertThat(teaching.spaces().get("global").alignment()).isEqualTo(10);
        assertThat(teaching.spaces().get("local").capacity()).isEqualTo(OptionalLong.of(55));
        Path file = dir.resolve("mine.json");
        Files.writeString(file, GOOD.replace("{ 'target': 't',", "{").replace('\'', '"'));
        assertThat(TargetJson.load(file.toString()).name()).isEqualTo("mine");
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> TargetJson.load(dir.resolve("none.json").toString()));
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        assertThat(e.failure().message()).contains("--target").contains("none.json").contains("npu-ref");
    }

    /** Contract §4: a space name check-deploy's --provide SPACE=SIZE could not write is refused at its key. */
    @Test
    void aSpaceNameWithAnEqualsSignEdgeWhitespaceOrAControlCharacterIsRefusedAtItsKey() {
        for (String bad : new String[]{"a=b", " sram", "sram ", "s\\u0001"}) {
            Failure.InvalidInput in = rejected(good("'sram':    {", "'" + bad + "':    {"));
            String name = bad.replace("\\u0001", "\u0001");
            assertThat(in.path()).hasValue("spaces." + name);
            assertThat(in.text()).hasValue(name);
            assertThat(in.message()).startsWith("spaces." + name + ": the space name ").contains("SPACE=SIZE");
        }
        assertThat(parse(good("'sram':    {", "'fast sram': {")).spaces()).containsKey("fast sram");
    }

    @Test
    void aTargetWithNoSpaceIsRefusedAtSpaces() {
        Failure.InvalidInput in = rejected("{ 'formats': { 'f': { 'maxAddress': 100 } }, 'spaces': { } }");
        assertThat(in.path()).hasValue("spaces");
        assertThat(in.message()).contains("at least one space");
    }
}
