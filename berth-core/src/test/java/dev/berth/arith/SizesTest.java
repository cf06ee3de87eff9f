package dev.berth.arith;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Contract §2: the numbers Berth reads, and every way to get one wrong. */
class SizesTest {
    private static final String PATH = "buffers[3].size";

    @ParameterizedTest(name = "\"{0}\" = {1}")
    @CsvSource(delimiter = '|', value = {
            "20480                      | 20480",
            "0                          | 0",
            "0x5000                     | 20480",
            "0X5000                     | 20480",
            "0xffff_FFFF                | 4294967295",
            "0x8000_0000                | 2147483648",
            "1_048_576                  | 1048576",
            "20KiB                      | 20480",
            "20 KiB                     | 20480",
            "1B                         | 1",
            "1 B                        | 1",
            "3MiB                       | 3145728",
            "2GiB                       | 2147483648",
            "1TiB                       | 1099511627776",
            "1_024 KiB                  | 1048576",
            "0x10KiB                    | 16384",
            "0x1B                       | 27",
            "0xAB                       | 171",
            "0x10 B                     | 16",
            "9223372036854775807        | 9223372036854775807",
            "0x7FFF_FFFF_FFFF_FFFF      | 9223372036854775807",
            "8388607TiB                 | 9223370937343148032",
    })
    void readsEveryFormOfTheContract(String text, long expected) {
        assertThat(Sizes.parse(text, PATH)).isEqualTo(expected);
    }

    /** Rejects {@code text} as invalid-input naming the path and the text; returns the message. */
    private static String rejected(String text) {
        BerthException e = catchThrowableOfType(BerthException.class, () -> Sizes.parse(text, PATH));
        assertThat(e).as("'%s' must be rejected", text).isNotNull();
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        Failure.InvalidInput f = (Failure.InvalidInput) e.failure();
        assertThat(f.path()).hasValue(PATH);
        assertThat(f.text()).hasValue(text);
        assertThat(f.message()).contains(PATH);
        return f.message();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void emptyIsInvalid(String text) {
        assertThat(rejected(text)).contains("empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"20.5", "20.0", "1.5KiB", "0.5 MiB", ".5"})
    void fractionsAreInvalid(String text) {
        assertThat(rejected(text)).contains(text).contains("whole number");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2e3", "1E6", "2e3KiB"})
    void exponentsAreInvalid(String text) {
        assertThat(rejected(text)).contains(text).contains("exponent");
    }

    @ParameterizedTest(name = "{0} suggests {1}")
    @CsvSource({"20KB, KiB", "20 KB, KiB", "20kB, KiB", "1MB, MiB", "4GB, GiB", "1TB, TiB", "1_000 MB, MiB"})
    void decimalUnitsGetABinaryHint(String text, String hint) {
        assertThat(rejected(text)).contains(text).contains(hint).contains("did you mean");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "-0x10", "0x-5", "-1KiB", "- 5"})
    void negativesAreInvalid(String text) {
        assertThat(rejected(text)).contains(text).contains("negative");
    }

    @ParameterizedTest
    @ValueSource(strings = {"9000000TiB", "9223372036854775808", "0x8000_0000_0000_0000", "8388608TiB",
            "8796093022208 MiB", "100000000000000000000000000000000000000000"})
    void valuesAbove2To63Minus1AfterTheUnitAreInvalid(String text) {
        assertThat(rejected(text)).contains(text).contains("2^63-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"_1", "1_", "1__0", "0x_10", "0x10_", "1_KiB", "_"})
    void underscoresOnlyBetweenDigits(String text) {
        assertThat(rejected(text)).contains(text).contains("'_'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"KiB", "0x", "B", "abc", "20 bytes", "20kib", "20 KiBs", "+5", "1,000", "0x1G", "20 K iB",
            "\u0663", "0b101", "20KiB B", "twenty"})
    void anythingElseIsInvalid(String text) {
        assertThat(rejected(text)).contains(text);
    }

    @Test
    void jsonIntegersAreCheckedToo() {
        assertThat(Sizes.fromInteger(BigInteger.valueOf(Long.MAX_VALUE), PATH)).isEqualTo(Long.MAX_VALUE);
        assertThat(Sizes.fromInteger(BigInteger.ZERO, PATH)).isZero();
        for (BigInteger bad : new BigInteger[] {BigInteger.valueOf(-1), BigInteger.ONE.shiftLeft(63),
                BigInteger.TEN.pow(40).negate()}) {
            BerthException e = catchThrowableOfType(BerthException.class, () -> Sizes.fromInteger(bad, PATH));
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(((Failure.InvalidInput) e.failure()).path()).isEqualTo(Optional.of(PATH));
            assertThat(e.failure().message()).contains(PATH).contains(bad.toString());
        }
    }

    @Test
    void aNullTextOrPathIsANullPointerExceptionNamingIt() {
        assertThat(catchThrowableOfType(NullPointerException.class, () -> Sizes.parse(null, PATH))).hasMessage("text");
        assertThat(catchThrowableOfType(NullPointerException.class, () -> Sizes.parse("1", null))).hasMessage("path");
        assertThat(catchThrowableOfType(NullPointerException.class, () -> Sizes.fromInteger(null, PATH)))
                .hasMessage("value");
        assertThat(catchThrowableOfType(NullPointerException.class,
                () -> Sizes.fromInteger(BigInteger.ONE, null)))
                .hasMessage("path");
    }
}
