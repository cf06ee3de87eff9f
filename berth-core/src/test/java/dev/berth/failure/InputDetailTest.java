package dev.berth.failure;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each case of an {@code invalid-input} failure's detail: the path and text it gives, and the error object's fields. */
class InputDetailTest {
    private static final DeployInput UNKNOWN = new DeployInput(DeployInput.Input.LOADER_BASE, "dram",
            DeployInput.Mismatch.NO_SUCH_SPACE, Optional.empty(), List.of("global"));
    private static final DeployInput MISSING = new DeployInput(DeployInput.Input.PROVIDED_CAPACITY, "global",
            DeployInput.Mismatch.NOT_PROVIDED, Optional.empty(), List.of());

    @Test
    void noneNamesNoPathAndNoText() {
        Failure.InvalidInput in = new Failure.InvalidInput("usage: m", new InputDetail.None());
        assertThat(in.path()).isEmpty();
        assertThat(in.text()).isEmpty();
        assertThat(in.fields()).containsExactly(Map.entry("category", "invalid-input"), Map.entry("message", "usage: m"));
    }

    @Test
    void atNamesThePathOnly() {
        Failure.InvalidInput in = new Failure.InvalidInput("x.y: m", new InputDetail.At("x.y"));
        assertThat(in.path()).hasValue("x.y");
        assertThat(in.text()).isEmpty();
        assertThat(in.fields()).containsExactly(Map.entry("category", "invalid-input"), Map.entry("message", "x.y: m"),
                Map.entry("path", "x.y"));
    }

    @Test
    void givenNamesThePathThenTheText() {
        Failure.InvalidInput in = new Failure.InvalidInput("x.y: m", new InputDetail.Given("x.y", "-1"));
        assertThat(in.path()).hasValue("x.y");
        assertThat(in.text()).hasValue("-1");
        assertThat(in.fields()).containsExactly(Map.entry("category", "invalid-input"), Map.entry("message", "x.y: m"),
                Map.entry("path", "x.y"), Map.entry("text", "-1"));
        // the text given may be empty (an empty name), and is still written
        assertThat(new Failure.InvalidInput("n", new InputDetail.Given("name", "")).fields()).containsEntry("text", "");
    }

    @Test
    void aDeploymentInputQuotesTheSpaceItNamesUnlessItIsMissing() {
        Failure.InvalidInput unknown = new Failure.InvalidInput("m", new InputDetail.Deployment("base", UNKNOWN));
        assertThat(unknown.path()).hasValue("base");
        assertThat(unknown.text()).hasValue("dram");
        assertThat(unknown.fields().keySet()).containsExactly("category", "message", "path", "text");
        Failure.InvalidInput missing = new Failure.InvalidInput("m", new InputDetail.Deployment("--provide", MISSING));
        assertThat(missing.path()).hasValue("--provide");
        assertThat(missing.text()).isEmpty();
        assertThat(missing.fields().keySet()).containsExactly("category", "message", "path");
        DeployInput local = new DeployInput(DeployInput.Input.PROVIDED_CAPACITY, "sram", DeployInput.Mismatch.NOT_LOGICAL,
                Optional.of("local"), List.of());
        assertThat(new InputDetail.Deployment("provide", local).text()).hasValue("sram");
    }

    @Test
    void anOverlapNamesTheLaterRegionsPathAndCarriesBothIndexes() {
        Failure.InvalidInput in = new Failure.InvalidInput("fixed[3]: m",
                new InputDetail.Overlap("fixed[3]", new FixedOverlap(3, 1)));
        assertThat(in.path()).hasValue("fixed[3]");
        assertThat(in.text()).isEmpty();
        assertThat(in.fields().keySet()).containsExactly("category", "message", "path");
        InputDetail.Overlap o = (InputDetail.Overlap) in.detail();
        assertThat(o.regions().region()).isEqualTo(3);
        assertThat(o.regions().overlaps()).isEqualTo(1);
    }

    @Test
    void theArgumentChecksGiveAtAndGiven() {
        assertThat(((Failure.InvalidInput) BerthException.invalid("p", "m").failure()).detail())
                .isEqualTo(new InputDetail.At("p"));
        assertThat(((Failure.InvalidInput) BerthException.invalid("p", "t", "m").failure()).detail())
                .isEqualTo(new InputDetail.Given("p", "t"));
    }

    @Test
    void aNullPartIsANullPointerExceptionNamingIt() {
        assertThatThrownBy(() -> new Failure.InvalidInput("m", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("detail");
        assertThatThrownBy(() -> new InputDetail.At(null)).isInstanceOf(NullPointerException.class).hasMessage("path");
        assertThatThrownBy(() -> new InputDetail.Given("p", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("text");
        assertThatThrownBy(() -> new InputDetail.Deployment("p", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("input");
        assertThatThrownBy(() -> new InputDetail.Overlap("p", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("regions");
    }
}
