package dev.berth.measure;

import dev.berth.artifact.PlannedBuffer;
import dev.berth.failure.BerthException;
import dev.berth.sweep.LiveBytes;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpaceUseTest {
    private static PlannedBuffer b(String name, long offset, long reserved, int first, int last, Origin origin) {
        return new PlannedBuffer(name, "g", offset, reserved, reserved, 1, new Lifetime(first, last), origin, Optional.empty());
    }

    @Test
    void measuresHighWaterGenerationAndTheFirstPeakStep() {
        // a: [0,100) steps 0-1; b: [100,150) steps 1-2; c: [0,60) step 3; instructions [150,180) over 0-3
        SpaceUse u = SpaceUse.of(List.of(b("a", 0, 100, 0, 1, Origin.TENSOR), b("b", 100, 50, 1, 2, Origin.TENSOR),
                b("c", 0, 60, 3, 3, Origin.TENSOR), b("i", 150, 30, 0, 3, Origin.INSTRUCTIONS)));
        assertThat(u.highWater()).isEqualTo(180);
        assertThat(u.generation()).isEqualTo(30);
        assertThat(u.peak()).isEqualTo(new LiveBytes.Peak(180, 1));
    }

    @Test
    void anEmptySpaceHasNothing() {
        assertThat(SpaceUse.of(List.of())).isEqualTo(new SpaceUse(0, 0, LiveBytes.Peak.NONE));
    }

    @Test
    void anEndPastTheHostsIntegersIsArithmeticOverflow() {
        List<PlannedBuffer> far = List.of(b("a", Long.MAX_VALUE - 10, 20, 0, 0, Origin.TENSOR));
        assertThatThrownBy(() -> SpaceUse.of(far)).isInstanceOf(BerthException.class)
                .extracting(e -> ((BerthException) e).category().id()).isEqualTo("arithmetic-overflow");
    }

    @Test
    void negativeFiguresAreInvalidInputNamingTheFieldAndANullPeakIsNamed() {
        assertThatThrownBy(() -> new SpaceUse(-1, 0, LiveBytes.Peak.NONE)).isInstanceOf(BerthException.class)
                .hasMessage("invalid-input: highWater: must be a whole number of bytes in 0..2^63-1, got -1");
        assertThatThrownBy(() -> new SpaceUse(0, -1, LiveBytes.Peak.NONE)).isInstanceOf(BerthException.class)
                .hasMessage("invalid-input: generation: must be a whole number of bytes in 0..2^63-1, got -1");
        assertThatThrownBy(() -> new SpaceUse(0, 0, null)).isInstanceOf(NullPointerException.class).hasMessage("peak");
    }
}
