package dev.berth.assign;

import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repair after each greedy order: it never raises the cost, the packing it leaves holds
 * exactly its choice (as a fresh placement of that choice would), and an eviction by least loss
 * per byte finds a move that least loss first misses.
 */
class RepairTest {
    static LongStream seeds() {
        return LongStream.range(0, 80);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void theRepairNeverRaisesTheCostAndItsPackingHoldsItsChoice(long seed) {
        Random rnd = new Random(seed * 31 + 7);
        Target t = AssignerTest.target(rnd, seed % 2 == 1);
        Workload w = AssignerTest.workload(rnd, t, 20 + rnd.nextInt(60));
        Model m = new Model(t, w);
        for (Map.Entry<String, int[]> o : Greedy.orders(m).entrySet()) {
            Greedy.Result g = Greedy.run(m, o.getKey(), o.getValue(), 1_000_000).orElse(null);
            if (g == null) {
                continue;
            }
            long before = g.cost();
            Greedy.Result r = Repair.improve(m, g, o.getValue(), 1_000_000);
            assertThat(r.cost()).as("seed %d, order %s", seed, o.getKey()).isLessThanOrEqualTo(before);
            assertThat(r.cost()).isEqualTo(m.cost(r.choice()));
            Packing fresh = new Packing(m);
            for (int k = 0; k < m.entries.length; k++) {
                Entry e = m.entries[k];
                if (e.limited()[r.choice()[k]] >= 0) {
                    assertThat(fresh.append(k, r.choice()[k])).as("seed %d: %s fits again", seed, e.name()).isTrue();
                }
            }
            for (int s = 0; s < m.limited.size(); s++) {
                List<Integer> want = new ArrayList<>();
                for (int k = 0; k < m.entries.length; k++) {
                    if (m.entries[k].limited()[r.choice()[k]] == s) {
                        want.add(k);
                    }
                }
                assertThat(r.packing().held(s)).as("seed %d, space %d", seed, s).isEqualTo(want);
                assertThat(r.packing().offsets(s)).isEqualTo(fresh.offsets(s));
            }
        }
    }

    /**
     * sram of 100 bytes, all live at step 0: r1 (10 bytes, saves 50) and r2 (60 bytes, saves 60)
     * are in, k (70 bytes, saves 70) is out. Evicting the cheapest loss first (r1, then r2) loses
     * 110 before k fits; evicting r2 alone lets k in beside r1 and saves 10 more.
     */
    @Test
    void aRivalThatFreesMoreRoomPerCostIsEvictedFirstWhenThatPays() {
        Space global = Space.logical("global", AssignerTest.WIDE).alignment(1).accessCost(1).build();
        Space sram = Space.local("sram", AssignerTest.WIDE).alignment(1).capacity(100).build();
        Target t = Target.builder("t").space(global).space(sram).build();
        Workload w = Workload.builder("w")
                .buffer(BufferSpec.named("k").size(70).alignment(1).live(0, 0).accesses(1).in(sram).orIn(global).build())
                .buffer(BufferSpec.named("r2").size(60).alignment(1).live(0, 0).accesses(1).in(sram).orIn(global).build())
                .buffer(BufferSpec.named("r1").size(10).alignment(1).live(0, 0).accesses(5).in(sram).orIn(global).build())
                .build();
        Model m = new Model(t, w);
        assertThat(m.entries[0].name()).isEqualTo("k");
        assertThat(m.entries[2].name()).isEqualTo("r1");
        int[] priority = {2, 1, 0};
        Greedy.Result g = Greedy.run(m, "r1 r2 k", priority, 1_000).orElseThrow();
        assertThat(g.cost()).isEqualTo(70);
        Greedy.Result r = Repair.improve(m, g, priority, 1_000);
        assertThat(r.cost()).isEqualTo(60);
        assertThat(r.cost()).isEqualTo(AssignerTest.bruteForce(t, w));
        assertThat(r.packing().held(0)).containsExactly(0, 2);
    }
}
