package dev.rmtemu.programs.wbmon.control;

import java.io.UncheckedIOException;
import dev.rmtemu.model.UserError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The measurements {@code rmtemu analyse netbouncer} reads: a paths file, one line per path
 * ({@code PATH_ID: LINK LINK ...}), and a success file ({@code PATH_ID RATE}, the rate in
 * [0, 1]). Blank lines and lines starting with {@code #} are skipped. Links are numbered in
 * the order they first appear, which is also the order of the output. Every malformed line is
 * refused as {@code FILE:LINE: cause}.
 *
 * @param links  link names, in order of first appearance
 * @param pathIds path ids, in file order
 * @param paths  per path, its links as indices into {@code links}
 * @param rates  per path, its success rate
 */
public record NetBouncerInput(List<String> links, List<String> pathIds, int[][] paths, double[] rates) {

    public static NetBouncerInput read(Path pathsFile, Path successFile) {
        Map<String, Integer> linkIndex = new LinkedHashMap<>();
        Map<String, Integer> pathLine = new LinkedHashMap<>();
        List<int[]> paths = new ArrayList<>();
        List<String> lines = lines(pathsFile);
        for (int n = 1; n <= lines.size(); n++) {
            String line = lines.get(n - 1).strip();
            if (skipped(line)) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw at(pathsFile, n, "expected 'PATH_ID: LINK LINK ...', found no ':'");
            }
            String id = line.substring(0, colon).strip();
            if (id.isEmpty() || id.chars().anyMatch(Character::isWhitespace)) {
                throw at(pathsFile, n, "path id must be one word before ':', found '" + id + "'");
            }
            if (pathLine.containsKey(id)) {
                throw at(pathsFile, n, "path " + id + " already given on line " + pathLine.get(id));
            }
            String rest = line.substring(colon + 1).strip();
            if (rest.isEmpty()) {
                throw at(pathsFile, n, "path " + id + " has no links");
            }
            LinkedHashSet<String> seen = new LinkedHashSet<>();
            String[] names = rest.split("\\s+");
            int[] path = new int[names.length];
            for (int k = 0; k < names.length; k++) {
                if (names[k].indexOf(':') >= 0) {
                    throw at(pathsFile, n, "link '" + names[k] + "' contains ':' (one path per line)");
                }
                if (!seen.add(names[k])) {
                    throw at(pathsFile, n, "path " + id + " crosses link " + names[k] + " twice");
                }
                Integer idx = linkIndex.get(names[k]);
                if (idx == null) {
                    idx = linkIndex.size();
                    linkIndex.put(names[k], idx);
                }
                path[k] = idx;
            }
            pathLine.put(id, n);
            paths.add(path);
        }
        if (paths.isEmpty()) {
            throw new UserError(pathsFile + ": no paths (expected lines 'PATH_ID: LINK LINK ...')");
        }
        List<String> ids = new ArrayList<>(pathLine.keySet());
        Map<String, Integer> position = new LinkedHashMap<>();
        for (int j = 0; j < ids.size(); j++) {
            position.put(ids.get(j), j);
        }
        double[] rates = new double[ids.size()];
        int[] rateLine = new int[ids.size()];
        List<String> sl = lines(successFile);
        for (int n = 1; n <= sl.size(); n++) {
            String line = sl.get(n - 1).strip();
            if (skipped(line)) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length != 2) {
                throw at(successFile, n, "expected 'PATH_ID RATE', found " + f.length + " fields");
            }
            Integer j = position.get(f[0]);
            if (j == null) {
                throw at(successFile, n, "path " + f[0] + " is not in " + pathsFile);
            }
            if (rateLine[j] != 0) {
                throw at(successFile, n, "path " + f[0] + " already has a rate on line " + rateLine[j]);
            }
            double rate;
            try {
                rate = Double.parseDouble(f[1]);
            } catch (NumberFormatException e) {
                throw at(successFile, n, "rate '" + f[1] + "' is not a number");
            }
            if (!(rate >= 0 && rate <= 1)) {
                throw at(successFile, n, "rate " + f[1] + " is outside [0, 1]");
            }
            rates[j] = rate;
            rateLine[j] = n;
        }
        for (int j = 0; j < ids.size(); j++) {
            if (rateLine[j] == 0) {
                throw at(pathsFile, pathLine.get(ids.get(j)), "path " + ids.get(j) + " has no rate in " + successFile);
            }
        }
        return new NetBouncerInput(List.copyOf(linkIndex.keySet()), List.copyOf(ids), paths.toArray(new int[0][]), rates);
    }

    private static boolean skipped(String line) {
        return line.isEmpty() || line.startsWith("#");
    }

    private static UserError at(Path file, int line, String cause) {
        return new UserError(file + ":" + line + ": " + cause);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            throw new UserError(file + ": cannot read: " + e.getMessage(), e);
        }
    }
}
