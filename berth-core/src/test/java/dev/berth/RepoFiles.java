package dev.berth;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Locates the repository for tests that read its files: the nearest directory at or above
 * the working directory that holds {@code .ci/run}, and the shared data beside it
 * ({@code <root>/../shared}). A test that needs either is skipped, with the reason, when it
 * is missing.
 */
public final class RepoFiles {
    private RepoFiles() {
    }

    /** The repository root, if the working directory is inside one. */
    public static Optional<Path> findRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(".ci").resolve("run"))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The repository root, or the test is skipped. */
    public static Path root() {
        Optional<Path> r = findRoot();
        assumeTrue(r.isPresent(), "no repository root (a directory with .ci/run) above " + Path.of("").toAbsolutePath());
        return r.get();
    }

    /** {@code <root>/../shared}, or the test is skipped. */
    public static Path shared() {
        Path s = root().resolve("..").resolve("shared").normalize();
        assumeTrue(Files.isDirectory(s), "shared data not found at " + s);
        return s;
    }
}
