package example;

import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.plan.Planner;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;

/** Two plans that fail: a local space too small for what is live at once, and a buffer of no size. */
public final class ReadingFailures {
    public static void main(String[] args) {
        Space sram = Space.local("sram", AddressFormat.bits("sram16", 16)).capacity(8192).build();
        Target target = Target.builder("small").space(sram).build();
        Workload workload = Workload.builder("too-big")
                .buffer(BufferSpec.named("x").size(6144).in(sram).live(0, 2).build())
                .buffer(BufferSpec.named("y").size(4096).in(sram).live(1, 3).build())
                .build();
        try {
            Planner.plan(target, workload, Planner.Options.defaults());
        } catch (BerthException e) {
            Failure f = e.failure();
            System.out.println(e.category().id() + ", exit code " + e.category().exitCode());
            System.out.println(f.message());
            f.facts().buffer().ifPresent(b -> System.out.println("buffer " + b));
            f.facts().limit().ifPresent(l -> System.out.println("limit " + l + " from " + f.facts().limitSource().orElseThrow()));
            if (f instanceof Failure.CapacityExceeded c) {
                System.out.println("provably infeasible: " + c.provablyInfeasible() + ", first at step " + c.step().orElseThrow());
            }
        }

        try {
            BufferSpec.named("z").size(-1).in(sram).live(0, 0).build();
        } catch (BerthException e) {
            if (e.failure() instanceof Failure.InvalidInput in) {
                System.out.println(in.path().orElse("?") + " = " + in.text().orElse("?") + ": " + in.message());
            }
            System.out.println(e.failure().fields());   // the contract's JSON error object, in its order
        }
    }
}
