package dev.berth.cli;

import dev.berth.failure.DeployInput;
import dev.berth.failure.Failure;
import dev.berth.failure.InputDetail;
import dev.berth.failure.Shortfall;

/**
 * Turns the facts a failure carries into the command line's advice: what could help, named by
 * the options that do it ({@code --time-limit}, {@code --solver exact}), and deployment inputs
 * named by their options ({@code --provide}, {@code --base}). The core states facts only; this is
 * where they meet the command line, before the failure is printed (text or JSON).
 */
final class Advice {
    private Advice() {
    }

    /** {@code f} as the command line reports it. */
    static Failure forCommandLine(Failure f) {
        if (f instanceof Failure.CapacityExceeded ce && ce.shortfall().remedy().isPresent()) {
            return new Failure.CapacityExceeded(ce.message() + remedy(ce.shortfall().remedy().get()), ce.facts(),
                    ce.shortfall());
        }
        if (f instanceof Failure.InvalidInput in && in.detail() instanceof InputDetail.Deployment d) {
            return deployInput(d.input());
        }
        return f;
    }

    private static String remedy(Shortfall.Remedy r) {
        return switch (r) {
            case MORE_TIME -> "; raise --time-limit";
            case MORE_WORK -> "; try --minimize, whose search has a larger work budget";
            case COMPLETE_SEARCH -> "; try --solver exact (or auto), which searches completely";
        };
    }

    private static String option(DeployInput.Input input) {
        return switch (input) {
            case PROVIDED_CAPACITY -> "--provide";
            case LOADER_BASE -> "--base";
        };
    }

    private static Failure deployInput(DeployInput d) {
        String option = option(d.input());
        String s = d.space();
        String message = switch (d.mismatch()) {
            case NO_SUCH_SPACE -> option + ": the plan has no space '" + s + "' (it has " + String.join(", ", d.planSpaces())
                    + ")";
            case NOT_LOGICAL -> option + ": space '" + s + "' is " + d.kind().orElse("not logical")
                    + "; only logical spaces get their capacity and base at deployment";
            case NOT_PROVIDED -> option + ": logical space " + s + " needs " + option + " " + s
                    + "=SIZE (what the runtime gives it)";
        };
        return new Failure.InvalidInput(message, new InputDetail.Deployment(option, d));
    }
}
