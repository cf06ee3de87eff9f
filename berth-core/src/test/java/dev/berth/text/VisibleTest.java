package dev.berth.text;

import dev.berth.verify.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VisibleTest {
    @Test
    void everyControlCharacterIsWrittenAsItsCode() {
        assertThat(Visible.text("a\u001b[31mb\nc\rd\te\u0000f\u007fg\u0085h\u009bi\u009f"))
                .isEqualTo("a\\u001b[31mb\\u000ac\\u000dd\\u0009e\\u0000f\\u007fg\\u0085h\\u009bi\\u009f");
        assertThat(Visible.code(new StringBuilder("x"), '\u001b')).hasToString("x\\u001b");
    }

    @Test
    void otherTextIsKeptAsItIs() {
        String s = "sram.0 \u00a0\u00e9t\u00e9 \u2028 x=y \\u001b";
        assertThat(Visible.text(s)).isSameAs(s);
        assertThat(Visible.text("")).isEmpty();
    }

    @Test
    void aVerdictWritesItsDetailsVisiblyOneLineEach() {
        Verdict.Invalid v = new Verdict.Invalid(List.of(new Verdict.Violation(Verdict.Kind.OVERLAP, "a\nb\u001b")));
        assertThat(v.toString()).isEqualTo("plan failed validation (1 violation):\n  - OVERLAP: a\\u000ab\\u001b");
    }
}
