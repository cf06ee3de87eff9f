package example;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.deploy.DeployCheck;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;

import java.util.Map;

/** What a plan says: the reservations, each space's metrics and proof, the verdict, the deployment check. */
public final class ReadingBack {
    public static void main(String[] args) {
        Space global = Space.logical("global", AddressFormat.bits("dma32", 32)).alignment(64).build();
        Space sram = Space.local("sram", AddressFormat.bits("sram18", 18)).capacity(256 * 1024).alignment(32).build();
        Target target = Target.builder("two").space(global).space(sram).build();
        Workload workload = Workload.builder("two-spaces")
                .buffer(BufferSpec.named("in").size(4096).in(global).live(0, 1).build())
                .buffer(BufferSpec.named("acc").size(48 * 1024).in(sram).alignment(128).live(1, 2).build())
                .buffer(BufferSpec.named("out").size(1000).in(global).live(2, 3).build())
                .build();

        PlanResult result = Planner.plan(target, workload, Planner.Options.defaults());
        Plan plan = result.plan();
        System.out.println("verified by " + result.verdict().checks() + " checks");
        for (Space space : target.spaces().values()) {
            SpaceMetrics m = plan.metrics(space);
            Optimality proof = m.optimality().orElseThrow();
            System.out.println(space.name() + " (" + m.kind() + "): highWater " + m.highWater() + ", peak live "
                    + m.peakLive() + " at step " + m.peakStep() + ", lower bound " + proof.lowerBound() + ", "
                    + proof.describe(m.highWater()) + ", solver " + result.solver(space).id());
            for (PlannedBuffer b : plan.buffersIn(space)) {
                System.out.println("  " + b.name() + " [" + b.offset() + ", +" + b.reserved() + ") requested "
                        + b.requested() + ", alignment " + b.alignment() + ", live " + b.live());
            }
        }
        PlannedBuffer out = plan.buffer("out").orElseThrow();
        System.out.println("out at " + out.offset());

        Verdict again = PlanValidator.validate(plan);   // any plan, also one read from a file
        System.out.println("valid: " + again.valid());
        DeployCheck.SpaceNeed need = DeployCheck.check(plan, Map.of("global", 16384L), Map.of()).get("global");
        System.out.println("global needs " + need.needed() + " of " + need.provided() + " bytes, spare " + need.spare());
    }
}
