package dev.rmtemu.model.p4.syntax;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/** The test programs written for the front end (src/test/resources/.../p4/corpus), TNA style. */
final class P4Corpus {
    static final List<String> PROGRAMS = List.of("exact_forwarder.p4", "lpm_router.p4", "register_counter.p4", "parser_features.p4");

    private P4Corpus() {
    }

    static Path path(String name) {
        try {
            return Path.of(P4Corpus.class.getResource("/dev/rmtemu/model/p4/corpus/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
