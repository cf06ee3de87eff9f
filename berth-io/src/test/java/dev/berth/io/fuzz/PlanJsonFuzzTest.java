package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.berth.artifact.Plan;
import dev.berth.deploy.DeployCheck;
import dev.berth.io.PlanJson;
import dev.berth.target.Space;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the plan reader (contract §6) and what reads plans: the validator and
 * {@code check-deploy}. A plan that reads must write back to bytes that read to the same
 * bytes; the validator must return the same verdict (not throw) on any plan that reads and on its
 * round trip, naming what is wrong when it rejects it, and
 * {@code check-deploy} must succeed or fail typed. Seeds and findings:
 * {@code PlanJsonFuzzTestInputs/planFile/}.
 */
class PlanJsonFuzzTest {

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void planFile(byte[] bytes) {
        Optional<Plan> read = Outcomes.read(() -> PlanJson.read(FuzzInputs.json(bytes, "fuzz.json")));
        read.ifPresent(plan -> {
            byte[] written = PlanJson.toBytes(plan);
            Plan back = Outcomes.read(() -> PlanJson.read(FuzzInputs.json(written, "again.json")))
                    .orElseThrow(() -> new AssertionError("a plan that read does not read back once written"));
            assertThat(PlanJson.toBytes(back)).isEqualTo(written);
            Verdict verdict = PlanValidator.validate(plan);
            // the verdict is a function of the plan: the same again, and the same for its round trip
            assertThat(PlanValidator.validate(plan)).isEqualTo(verdict);
            assertThat(PlanValidator.validate(back)).isEqualTo(verdict);
            if (verdict instanceof Verdict.Invalid bad) {
                assertThat(bad.violations()).isNotEmpty()
                        .allSatisfy(v -> assertThat(v.detail()).isNotBlank());
            } else {
                assertThat(verdict.valid()).isTrue();
            }
            Map<String, Long> provide = new LinkedHashMap<>();
            Map<String, Long> base = new LinkedHashMap<>();
            for (Space s : plan.target().spaces().values()) {
                if (s instanceof Space.Logical) {
                    provide.put(s.name(), 1L << 40);
                    base.put(s.name(), 0x1000L);
                }
            }
            Outcomes.typed(() -> DeployCheck.check(plan, provide, base));
        });
    }
}
