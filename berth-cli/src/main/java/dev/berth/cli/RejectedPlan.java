package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.text.Visible;
import dev.berth.verify.Verdict;

import java.nio.file.Path;

/**
 * A plan file that the validator rejected ({@code report}, {@code check-deploy}): {@code invalid-input}
 * at the file, whose message lists one violation a line. The verdict writes its details visibly
 * and the file's name is made visible here, so the line breaks of the message are the verdict's
 * own and {@link Main} keeps them.
 */
final class RejectedPlan extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient BerthException failure;

    RejectedPlan(Path planFile, Verdict.Invalid verdict) {
        super(null, null, false, false);
        this.failure = BerthException.invalid(planFile.toString(), Visible.text(planFile.toString()) + ": " + verdict);
    }

    BerthException failure() {
        return failure;
    }
}
