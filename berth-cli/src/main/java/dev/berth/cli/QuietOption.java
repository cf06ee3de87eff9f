package dev.berth.cli;

import picocli.CommandLine.Option;

/**
 * {@code -q}, {@code --quiet}: one meaning for every command that has it (contract §7): no
 * progress on stderr (the progress bar, {@code --minimize}'s brackets, {@code bench}'s rows as
 * they come) and no confirmation lines ({@code wrote FILE}, {@code no artifact written}); what the
 * command is asked for (its tables, JSON, the picture) and every error are printed as without it.
 */
final class QuietOption {
    @Option(names = {"-q", "--quiet"}, description = "Quiet: no progress on stderr and no 'wrote FILE' lines; the "
            + "results (tables, JSON) and errors are printed as without it.")
    boolean quiet;
}
