package dev.rmtemu.model.parse;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The parser budgets of p4c's Tofino back end ({@code bf-p4c/parde/parde_spec.h}:
 * {@code PardeSpec::numTcamRows} 256, {@code byteInputBufferSize} 32, the match
 * registers' 32 bits), each with a refused graph and its legal twin.
 */
class ParserLimitsCheckTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final HeaderType BYTE = HeaderType.of("b_h", new HeaderField("v", 8));
    private static final HeaderType WORD = HeaderType.of("w_h", new HeaderField("a", 16), new HeaderField("b", 16),
            new HeaderField("c", 16));

    @Test
    void defaultGraphFitsTofino1AndItsRowsAreCounted() {
        ParserResources res = ParserLimitsCheck.check("counter", DefaultParseGraph.build(), TOFINO1);
        // branches: ethernet 6, vlan_outer 5, vlan_inner 4, arp 1, ipv4 4 (+22 for 11 option lengths), ipv6 8,
        // hop-by-hop 7 (+32 for 16 lengths), dest opts 6 (+32), routing 6 (+32), frag 5, dest opts last 4 (+32),
        // tcp 1 (+22), udp, icmp, icmpv6 1 each; ipv6 (40 B) splits into two hardware states (+1)
        assertEquals(233, res.tcamRows());
        assertEquals(256, res.tcamRowsLimit());
        assertEquals(15, res.validityBits());
        ParserResources.StateRows ipv6 = res.states().get(DefaultParseGraph.build().stateIndex("parse_ipv6"));
        assertEquals(new ParserResources.StateRows("parse_ipv6", 40, 1, 0, 8), ipv6);
    }

    /** A select with {@code n} exact branches and a default, on one 8-bit key. */
    private static ParseGraph wide(int n) {
        ParseGraph.Builder b = ParseGraph.builder("wide").header("h", BYTE);
        ParseGraph.StateBuilder s = b.state("start").extract("h").select("h.v");
        for (int i = 0; i < n; i++) {
            s.when(i, "accept");
        }
        return s.otherwise("reject").build();
    }

    @Test
    void tcamRowsOverTheBudgetAreRefusedAndTheLegalTwinFits() {
        assertEquals(256, ParserLimitsCheck.check("p", wide(255), TOFINO1).tcamRows());
        UserError e = assertThrows(UserError.class, () -> ParserLimitsCheck.check("p", wide(256), TOFINO1));
        assertEquals("p: parser wide: state start: needs 257 parser TCAM rows in all, the target has 256"
                + " (the rows run out in this state) [parser TCAM rows]", e.getMessage());
        assertEquals(Compilation.EXIT_REFUSED, e.exitCode());
        assertEquals(257, ParserLimitsCheck.check("p", wide(256), TargetProfiles.builtIn("unconstrained")).tcamRows());
    }

    @Test
    void rangesAndValueSetsCountTheirRows() {
        ParseGraph g = ParseGraph.builder("r").header("h", BYTE).valueSet("vs", 8, 10)
                .state("start").extract("h").select("h.v")
                .when("accept", KeySet.range(1, 6)) // 1, 2-3, 4-5, 6
                .when("accept", KeySet.valueSet("vs"))
                .otherwise("reject")
                .build();
        assertEquals(4 + 10 + 1, ParserLimitsCheck.check("p", g, TOFINO1).tcamRows());
        assertEquals(1, ParserLimitsCheck.rangePrefixes(0, 255, 8));
        assertEquals(14, ParserLimitsCheck.rangePrefixes(1, 254, 8));
    }

    @Test
    void aSelectKeyWiderThanTheMatchRegistersIsRefused() {
        ParseGraph ok = ParseGraph.builder("k").header("w", WORD).state("start").extract("w").select("w.a", "w.b")
                .when("accept", KeySet.exact(1), KeySet.exact(2)).otherwise("reject").build();
        assertEquals(2, ParserLimitsCheck.check("p", ok, TOFINO1).tcamRows());
        ParseGraph wide = ParseGraph.builder("k").header("w", WORD).state("start").extract("w").select("w.a", "w.b", "w.c")
                .when("accept", KeySet.exact(1), KeySet.exact(2), KeySet.exact(3)).otherwise("reject").build();
        UserError e = assertThrows(UserError.class, () -> ParserLimitsCheck.check("p", wide, TOFINO1));
        assertEquals("p: parser k: state start: selects on 48 key bits, the match registers hold 32 [select key width]",
                e.getMessage());
    }

    @Test
    void aLookaheadPastTheInputBufferIsRefused() {
        ParseGraph ok = ParseGraph.builder("l").header("h", BYTE).state("start").select(SelectKey.lookahead(31 * 8, 8))
                .when(1, "accept").otherwise("reject").build();
        assertEquals(2, ParserLimitsCheck.check("p", ok, TOFINO1).tcamRows());
        ParseGraph far = ParseGraph.builder("l").header("h", BYTE).state("start").select(SelectKey.lookahead(32 * 8, 8))
                .when(1, "accept").otherwise("reject").build();
        UserError e = assertThrows(UserError.class, () -> ParserLimitsCheck.check("p", far, TOFINO1));
        assertEquals("p: parser l: state start: looks ahead 264 bits, a state sees 32 bytes [input buffer]", e.getMessage());
    }

    @Test
    void aHeaderLongerThanTheWindowIsRefused() {
        HeaderType big = HeaderType.of("big_h", new HeaderField("a", 128), new HeaderField("b", 128));
        ParseGraph.Builder b = ParseGraph.builder("big");
        for (int i = 0; i < 8; i++) {
            b.header("h" + i, big);
        }
        HeaderType huge = new HeaderType("huge_h", java.util.Collections.nCopies(17, new HeaderField("x", 128)), null);
        ParseGraph g = b.header("huge", huge).state("start").extract("huge").transition("accept").build();
        UserError e = assertThrows(UserError.class, () -> ParserLimitsCheck.check("p", g, TOFINO1));
        assertEquals("p: parser big: state start: extracts huge of 272 bytes, the parser reads 256 bytes of a frame"
                + " [parser window]", e.getMessage());
    }
}
