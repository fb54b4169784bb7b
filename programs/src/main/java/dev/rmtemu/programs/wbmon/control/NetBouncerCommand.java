package dev.rmtemu.programs.wbmon.control;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.spi.Analysis;
import dev.rmtemu.model.UserError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rmtemu analyse netbouncer}: NetBouncer's link failure inference ({@link NetBouncer})
 * on a user's own path measurements ({@link NetBouncerInput}). Every path weighs the same
 * (a success file has rates, not packet counts).
 */
@Command(name = "netbouncer",
        mixinStandardHelpOptions = true,
        description = {
            "NetBouncer's link failure inference on your own path measurements.",
            "",
            "Infers each link's success probability from the paths' success rates by NetBouncer's",
            "regularised least squares (Tan et al., NSDI 2019, Algorithm 1) and blames the links",
            "below --blame-below. Paths file: one line per path, 'PATH_ID: LINK LINK ...'. Success",
            "file: 'PATH_ID RATE' lines, RATE in [0, 1], one per path. Blank lines and lines",
            "starting with '#' are skipped. Links are listed in the order they first appear."
        })
public final class NetBouncerCommand implements Callable<Integer>, Analysis {
    /** One link's inferred success probability. */
    @JsonPropertyOrder({"link", "success"})
    public record LinkSuccess(String link, double success) {
    }

    /** The inference: every link, then the blamed ones. */
    @JsonPropertyOrder({"links", "blamed"})
    public record Result(List<LinkSuccess> links, List<String> blamed) {
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--paths", required = true, paramLabel = "FILE", description = "Paths: 'PATH_ID: LINK LINK ...' per line.")
    Path pathsFile;

    @Option(names = "--success", required = true, paramLabel = "FILE", description = "Success rates: 'PATH_ID RATE' per line.")
    Path successFile;

    @Option(names = "--lambda", paramLabel = "L", description = "Regularisation weight λ (default ${DEFAULT-VALUE}).")
    double lambda = NetBouncer.Params.DEFAULTS.lambda();

    @Option(names = "--blame-below", paramLabel = "X",
            description = "Blame a link whose success is below X (default ${DEFAULT-VALUE}, WBMon's threshold).")
    double blameBelow = WbmonAnalyser.Params.DEFAULT_BLAME_BELOW;

    @Option(names = "--json", description = "Print {\"links\":[{\"link\":ID,\"success\":X},...],\"blamed\":[...]}.")
    boolean json;

    /** Runs the inference on parsed input. */
    public static Result infer(NetBouncerInput in, double lambda, double blameBelow) {
        double[] weight = new double[in.paths().length];
        Arrays.fill(weight, 1.0);
        NetBouncer.Params p = new NetBouncer.Params(lambda, NetBouncer.Params.DEFAULTS.epsilon(), NetBouncer.Params.DEFAULTS.maxSweeps());
        double[] x = NetBouncer.solve(in.links().size(), in.paths(), in.rates(), weight, p).x();
        List<LinkSuccess> links = new ArrayList<>();
        List<String> blamed = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            links.add(new LinkSuccess(in.links().get(i), x[i]));
            if (x[i] < blameBelow) {
                blamed.add(in.links().get(i));
            }
        }
        return new Result(List.copyOf(links), List.copyOf(blamed));
    }

    @Override
    public Integer call() {
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new UserError("--lambda must be a finite number >= 0: " + lambda);
        }
        if (!(blameBelow >= 0 && blameBelow <= 1)) {
            throw new UserError("--blame-below must be in [0, 1]: " + blameBelow);
        }
        Result r = infer(NetBouncerInput.read(pathsFile, successFile), lambda, blameBelow);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            try {
                out.println(new ObjectMapper().writeValueAsString(r));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("result records always serialise", e);
            }
        } else {
            int width = "link".length();
            for (LinkSuccess l : r.links()) {
                width = Math.max(width, l.link().length());
            }
            out.printf(Locale.ROOT, "%-" + width + "s  success%n", "link");
            for (LinkSuccess l : r.links()) {
                out.printf(Locale.ROOT, "%-" + width + "s  %.6f%n", l.link(), l.success());
            }
            out.printf(Locale.ROOT, "blamed (success below %s): %s%n", blameBelow,
                    r.blamed().isEmpty() ? "none" : String.join(" ", r.blamed()));
        }
        out.flush();
        return 0;
    }
}
