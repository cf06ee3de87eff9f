package dev.berth.io;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the shared data directory: walks up from the working directory to the repository
 * root (the directory holding {@code .ci/run}) and takes {@code <root>/../shared}. Tests that
 * need it are skipped, with a message, when it is missing.
 */
final class SharedData {
    private SharedData() {
    }

    /** {@code <shared>/relative}, or the calling test is skipped when it does not exist. */
    static Path require(String relative) {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve(".ci/run"))) {
            dir = dir.getParent();
        }
        Assumptions.assumeTrue(dir != null, "repository root (the directory with .ci/run) not found above "
                + Path.of("").toAbsolutePath() + ": shared data unavailable, test skipped");
        Path p = dir.resolve("../shared").resolve(relative).normalize();
        Assumptions.assumeTrue(Files.exists(p), p + " is missing: shared data unavailable, test skipped");
        return p;
    }
}
