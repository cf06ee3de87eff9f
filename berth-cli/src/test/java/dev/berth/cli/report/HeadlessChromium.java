package dev.berth.cli.report;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Starts Debian's headless Chromium through its chromedriver, with explicit paths so that
 * Selenium Manager never looks anything up or downloads anything. Override the paths with
 * {@code -Dberth.chromium=...} and {@code -Dberth.chromedriver=...}.
 *
 * <p>When no browser can be started, {@link #start} fails the test if the environment variable
 * {@code CI} is set; otherwise it returns empty with the reason in {@link #whyNot}, and each
 * test skips itself with that reason ({@link #require}).
 */
final class HeadlessChromium {
    static final String BROWSER = System.getProperty("berth.chromium", "/usr/bin/chromium");
    static final String DRIVER = System.getProperty("berth.chromedriver", "/usr/bin/chromedriver");

    private HeadlessChromium() {
    }

    /** Why no browser could be started (empty while none was tried or one started). */
    static String whyNot = "";

    /** Skips the calling test, with the reason, when no browser could be started. */
    static WebDriver require(Optional<WebDriver> driver) {
        Assumptions.assumeTrue(driver.isPresent(), () -> "skipped (CI is not set): " + whyNot);
        return driver.get();
    }

    static Optional<WebDriver> start(Path profileParent) {
        try {
            for (String exe : new String[]{BROWSER, DRIVER}) {
                if (!Files.isExecutable(Path.of(exe))) {
                    throw new IllegalStateException(exe + " is missing or not executable");
                }
            }
            System.setProperty("webdriver.chrome.driver", DRIVER);
            Files.createDirectories(profileParent);
            Path profile = Files.createTempDirectory(profileParent, "profile-");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(BROWSER);
            options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1600,1200", "--hide-scrollbars",
                    "--force-device-scale-factor=1");
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File(DRIVER)).usingAnyFreePort().build();
            return Optional.of(new ChromeDriver(service, options));
        } catch (IOException | RuntimeException e) {
            String why = "no headless Chromium could be started (" + BROWSER + " with " + DRIVER + "): " + e.getMessage()
                    + "; install Debian's chromium and chromium-driver (.ci/run does it in CI)";
            String ci = System.getenv("CI");
            if (ci != null && !ci.isBlank()) {
                return Assertions.fail("CI is set, so the browser test may not be skipped: " + why, e);
            }
            whyNot = why;
            System.err.println("[browser test] " + why);
            return Optional.empty();
        }
    }
}
