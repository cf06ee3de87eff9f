package dev.berth.cli;

import dev.berth.failure.DeployInput;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.failure.InputDetail;
import dev.berth.failure.Shortfall;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line turns the facts of a failure into advice that names its options; the rest of the failure is kept. */
class AdviceTest {
    private static final Facts FACTS = Facts.NONE.withBuffer("wide").withSpace("local");

    private static Failure.CapacityExceeded capacity(Shortfall why) {
        return new Failure.CapacityExceeded("the greedy placement reached 60", FACTS, why);
    }

    @Test
    void whatCouldHelpIsNamedByItsOption() {
        Failure more = Advice.forCommandLine(capacity(new Shortfall.SearchStopped("greedy", 60, "time limit", true)));
        assertThat(more.message()).isEqualTo("the greedy placement reached 60; raise --time-limit");
        Failure work = Advice.forCommandLine(capacity(new Shortfall.SearchStopped("greedy", 60, "node limit", false)));
        assertThat(work.message()).isEqualTo("the greedy placement reached 60; try --minimize, whose search has a "
                + "larger work budget");
        Failure exact = Advice.forCommandLine(capacity(new Shortfall.NoCompleteSearch("greedy", 60)));
        assertThat(exact.message()).isEqualTo("the greedy placement reached 60; try --solver exact (or auto), which "
                + "searches completely");
        assertThat(exact.fields()).containsEntry("buffer", "wide").containsEntry("provablyInfeasible", false);
        assertThat(exact.fields().keySet()).isEqualTo(capacity(new Shortfall.NoCompleteSearch("greedy", 60)).fields()
                .keySet());
    }

    @Test
    void whenNothingCanHelpTheFailureIsAsGiven() {
        for (Shortfall why : List.of(new Shortfall.LiveBytesExceed(1, 60, 55), new Shortfall.ProvedInfeasible(List.of("a")),
                Shortfall.UNDIAGNOSED)) {
            Failure f = capacity(why);
            assertThat(Advice.forCommandLine(f)).isSameAs(f);
        }
        Failure plain = new Failure.InvalidInput("m", new InputDetail.At("x"));
        assertThat(Advice.forCommandLine(plain)).isSameAs(plain);
    }

    private static Failure.InvalidInput deploy(DeployInput d) {
        Failure.InvalidInput core = new Failure.InvalidInput("core text", new InputDetail.Deployment(d.input().id(), d));
        return (Failure.InvalidInput) Advice.forCommandLine(core);
    }

    @Test
    void deploymentInputsAreNamedByTheirOptions() {
        Failure.InvalidInput missing = deploy(new DeployInput(DeployInput.Input.PROVIDED_CAPACITY, "global",
                DeployInput.Mismatch.NOT_PROVIDED, Optional.empty(), List.of()));
        assertThat(missing.message()).isEqualTo("--provide: logical space global needs --provide global=SIZE (what the "
                + "runtime gives it)");
        assertThat(missing.path()).hasValue("--provide");
        assertThat(missing.text()).isEmpty();
        Failure.InvalidInput unknown = deploy(new DeployInput(DeployInput.Input.LOADER_BASE, "dram",
                DeployInput.Mismatch.NO_SUCH_SPACE, Optional.empty(), List.of("global", "sram")));
        assertThat(unknown.message()).isEqualTo("--base: the plan has no space 'dram' (it has global, sram)");
        assertThat(unknown.path()).hasValue("--base");
        assertThat(unknown.text()).hasValue("dram");
        Failure.InvalidInput local = deploy(new DeployInput(DeployInput.Input.PROVIDED_CAPACITY, "sram",
                DeployInput.Mismatch.NOT_LOGICAL, Optional.of("local"), List.of()));
        assertThat(local.message()).isEqualTo("--provide: space 'sram' is local; only logical spaces get their capacity "
                + "and base at deployment");
        assertThat(local.fields().keySet()).containsExactly("category", "message", "path", "text");
    }
}
