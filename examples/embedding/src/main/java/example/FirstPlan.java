package example;

import dev.berth.artifact.Plan;
import dev.berth.plan.Planner;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;

public final class FirstPlan {
    public static void main(String[] args) {
        AddressFormat dma32 = AddressFormat.exclusive("dma32", 0xFFFF_FFFFL);
        Space global = Space.logical("global", dma32).alignment(64).build();
        Target target = Target.builder("mine").space(global).build();
        Workload workload = Workload.builder("eleven")
                .buffer(BufferSpec.named("a").size(4096).in(global).live(0, 1).build())
                .buffer(BufferSpec.named("b").size(4096).in(global).live(0, 1).build())
                .buffer(BufferSpec.named("c").size(3072).in(global).live(1, 1).build())
                .build();
        Plan plan = Planner.plan(target, workload, Planner.Options.defaults()).plan(); // validated, or BerthException
        plan.buffers().forEach(b -> System.out.println(b.name() + " @ " + b.offset() + " (+" + b.reserved() + ")"));
        System.out.println("highWater " + plan.metrics(global).highWater());   // 11264
    }
}
