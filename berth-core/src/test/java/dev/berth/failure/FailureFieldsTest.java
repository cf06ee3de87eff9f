package dev.berth.failure;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JSON error object's fields (contract §7): in the contract's order, absent ones left out. */
class FailureFieldsTest {
    private static final Facts ALL = Facts.NONE.withLimit(55, "space local: capacity 55").withAlignment(10)
            .withReserved(30).withRequested(21).withStart(30).withSpace("local").withBuffer("t1");

    @Test
    void capacityExceededListsEveryFactInContractOrder() {
        Failure f = new Failure.CapacityExceeded("m", ALL, new Shortfall.LiveBytesExceed(1, 60, 55));
        Map<String, Object> fields = f.fields();
        assertThat(fields.keySet()).containsExactly("category", "message", "buffer", "space", "start", "requested",
                "reserved", "alignment", "limit", "limitSource", "provablyInfeasible", "step");
        assertThat(fields.values()).containsExactly("capacity-exceeded", "m", "t1", "local", 30L, 21L, 30L, 10L, 55L,
                "space local: capacity 55", true, 1);
    }

    @Test
    void fieldsThatDoNotApplyAreLeftOut() {
        Failure notInfeasible = new Failure.CapacityExceeded("m", ALL, new Shortfall.NoCompleteSearch("greedy", 60));
        assertThat(notInfeasible.fields()).containsEntry("provablyInfeasible", false).doesNotContainKeys("step",
                "infeasibleSubset");
        Failure subset = new Failure.CapacityExceeded("m", ALL, new Shortfall.ProvedInfeasible(List.of("a", "b")));
        assertThat(subset.fields()).containsEntry("infeasibleSubset", List.of("a", "b"));
        Failure format = new Failure.AddressNotEncodable("m", Facts.NONE.withBuffer("b").withSpace("g").withStart(27));
        assertThat(format.fields().keySet()).containsExactly("category", "message", "buffer", "space", "start");
        assertThat(format.fields()).doesNotContainKey("provablyInfeasible");
        Failure input = new Failure.InvalidInput("m", new InputDetail.At("spaces.sram.capacity"));
        assertThat(input.fields().keySet()).containsExactly("category", "message", "path");
        Failure overflow = new Failure.ArithmeticOverflow("m", "lcm", Facts.NONE.withBuffer("b"));
        assertThat(overflow.fields().keySet()).containsExactly("category", "message", "buffer", "operation");
        Failure deploy = new Failure.InsufficientDeploymentCapacity("m", "global", 100, 64, 36);
        assertThat(deploy.fields().keySet()).containsExactly("category", "message", "space", "needed", "provided",
                "short");
        assertThat(deploy.category().exitCode()).isEqualTo(6);
    }

    @Test
    void aShortfallGivesTheContractsFieldsAndWhatCouldHelp() {
        Failure.CapacityExceeded live = new Failure.CapacityExceeded("m", ALL, new Shortfall.LiveBytesExceed(3, 60, 55));
        assertThat(live.provablyInfeasible()).isTrue();
        assertThat(live.step()).hasValue(3);
        assertThat(live.infeasibleSubset()).isEmpty();
        assertThat(live.shortfall().remedy()).isEmpty();
        Failure.CapacityExceeded proved = new Failure.CapacityExceeded("m", ALL,
                new Shortfall.ProvedInfeasible(List.of("a")));
        assertThat(proved.provablyInfeasible()).isFalse();
        assertThat(proved.step()).isEmpty();
        assertThat(proved.infeasibleSubset()).containsExactly("a");
        assertThat(proved.shortfall().remedy()).isEmpty();
        Failure.CapacityExceeded stopped = new Failure.CapacityExceeded("m", ALL,
                new Shortfall.SearchStopped("skyline", 60, "time limit", true));
        assertThat(stopped.shortfall().remedy()).hasValue(Shortfall.Remedy.MORE_TIME);
        assertThat(stopped.fields()).containsEntry("provablyInfeasible", false).doesNotContainKeys("step",
                "infeasibleSubset");
        Failure.CapacityExceeded heuristic = new Failure.CapacityExceeded("m", ALL,
                new Shortfall.NoCompleteSearch("greedy", 60));
        assertThat(heuristic.shortfall().remedy()).hasValue(Shortfall.Remedy.COMPLETE_SEARCH);
        Failure.CapacityExceeded admission = new Failure.CapacityExceeded("m", ALL, Shortfall.UNDIAGNOSED);
        assertThat(admission.shortfall().remedy()).isEmpty();
        assertThat(admission.fields()).containsEntry("provablyInfeasible", false);
    }

    @Test
    void everyCategoryHasTheContractsIdAndExitCode() {
        assertThat(Category.INVALID_INPUT.id()).isEqualTo("invalid-input");
        assertThat(Category.INVALID_INPUT.exitCode()).isEqualTo(2);
        assertThat(Category.ADDRESS_NOT_ENCODABLE.id()).isEqualTo("address-not-encodable");
        assertThat(Category.ADDRESS_NOT_ENCODABLE.exitCode()).isEqualTo(3);
        assertThat(Category.ARITHMETIC_OVERFLOW.id()).isEqualTo("arithmetic-overflow");
        assertThat(Category.ARITHMETIC_OVERFLOW.exitCode()).isEqualTo(4);
        assertThat(Category.CAPACITY_EXCEEDED.id()).isEqualTo("capacity-exceeded");
        assertThat(Category.CAPACITY_EXCEEDED.exitCode()).isEqualTo(5);
        assertThat(Category.INSUFFICIENT_DEPLOYMENT_CAPACITY.id()).isEqualTo("insufficient-deployment-capacity");
        assertThat(Category.INSUFFICIENT_DEPLOYMENT_CAPACITY.exitCode()).isEqualTo(6);
    }

    @Test
    void aLazyFailureIsDescribedOnceAndOnlyWhenRead() {
        AtomicInteger built = new AtomicInteger();
        BerthException e = new BerthException(Category.ADDRESS_NOT_ENCODABLE, () -> {
            built.incrementAndGet();
            return new Failure.AddressNotEncodable("start 27 is past 29", Facts.NONE.withStart(27));
        });
        assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        assertThat(built).hasValue(0);
        assertThat(e.getMessage()).isEqualTo("address-not-encodable: start 27 is past 29");
        assertThat(e.failure().facts().start()).hasValue(27);
        assertThat(built).hasValue(1);
        assertThat(e.getStackTrace()).isEmpty();
        BerthException wrong = new BerthException(Category.CAPACITY_EXCEEDED,
                () -> new Failure.AddressNotEncodable("m", Facts.NONE));
        assertThatThrownBy(wrong::failure).isInstanceOf(IllegalStateException.class);
        BerthException eager = BerthException.invalid("p", "x", "p: bad");
        assertThat(eager.getMessage()).isEqualTo("invalid-input: p: bad");
    }
}
