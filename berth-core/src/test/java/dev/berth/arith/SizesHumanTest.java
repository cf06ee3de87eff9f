package dev.berth.arith;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Sizes#human}: exact bytes, with an IEC figure from 1 KiB on (whole, or to two decimals). */
class SizesHumanTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0|0 B",
            "1023|1023 B",
            "1024|1024 B (1 KiB)",
            "1536|1536 B (1.50 KiB)",
            "1048575|1048575 B (1024.00 KiB)",
            "1048576|1048576 B (1 MiB)",
            "3221225472|3221225472 B (3 GiB)",
            "1099511627776|1099511627776 B (1 TiB)",
            "1125899906842624|1125899906842624 B (1 PiB)",
            "2305843009213693952|2305843009213693952 B (2 EiB)",
            "9223372036854775807|9223372036854775807 B (8 EiB)"})
    void humanSizes(long bytes, String text) {
        assertThat(Sizes.human(bytes)).isEqualTo(text);
    }
}
