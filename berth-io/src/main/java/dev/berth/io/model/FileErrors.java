package dev.berth.io.model;

import dev.berth.failure.BerthException;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * The one wording of a file that cannot be read or written: the reason in words ("permission
 * denied", "no such file"), not the name of a Java exception class.
 */
public final class FileErrors {
    private FileErrors() {
    }

    /** Why {@code e} happened, in words. */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException x) {
            // createDirectories meets a file where a directory is needed
            return (x.getFile() != null ? x.getFile() + " " : "") + "exists and is not a directory";
        }
        if (e instanceof NotDirectoryException x) {
            return x.getFile() + " is not a directory";
        }
        if (e instanceof FileSystemException x && x.getReason() != null) {
            return x.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** {@code invalid-input}: {@code file} (named {@code what}) cannot be read, and why. */
    public static BerthException cannotRead(Path file, String what, IOException e) {
        if (e instanceof NoSuchFileException) {
            return BerthException.invalid(what, "no such file: " + what);
        }
        // a directory opens as a channel on Linux and fails only when mapped ("No such device")
        String why = Files.isDirectory(file) ? "it is a directory" : reason(e);
        return BerthException.invalid(what, "cannot read " + what + ": " + why);
    }

    /** {@code invalid-input}: {@code what} cannot be written, and why. */
    public static BerthException cannotWrite(String what, IOException e) {
        return BerthException.invalid(what, "cannot write " + what + ": " + reason(e));
    }
}
