package dev.berth.cli;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the team's shared data ({@code <repo root>/../shared}): the repository root is the
 * first directory at or above the working directory that holds {@code .ci/run}. Tests that
 * need it are skipped, with a message saying why, when it is not there.
 */
final class SharedData {
    private SharedData() {
    }

    /** {@code <root>/../shared/<relative>}, or the calling test is skipped. */
    static Path require(String relative) {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.isRegularFile(root.resolve(".ci/run"))) {
            root = root.getParent();
        }
        Assumptions.assumeTrue(root != null, "skipped: no repository root (a directory with .ci/run) above "
                + Path.of("").toAbsolutePath());
        Path p = root.resolve("../shared").resolve(relative).normalize();
        Assumptions.assumeTrue(Files.exists(p), "skipped: shared data " + p + " is not present (it lives beside the "
                + "repository as ../shared)");
        return p;
    }
}
