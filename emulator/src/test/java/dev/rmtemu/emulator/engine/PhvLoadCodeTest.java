package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.parse.DefaultParseGraph;
import dev.rmtemu.model.parse.FieldRef;
import dev.rmtemu.model.parse.HeaderInstance;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The generated PHV load gives exactly what its plan walked as data gives, on random plans
 * (overlays of up to three alternatives, shifts, masks, validity bits) over random parse
 * results of the default graph.
 */
class PhvLoadCodeTest {
    @Test
    void generatedLoadIsThePlanOnRandomPlansAndResults() {
        ParseGraph g = DefaultParseGraph.build();
        List<HeaderInstance> headers = g.headers();
        Random rnd = new Random(34);
        for (int trial = 0; trial < 200; trial++) {
            PhvLoadCode.Plan plan = randomPlan(g, rnd);
            PhvLoadCode code = PhvLoadCode.of(plan);
            assertNotEquals(PhvLoadCode.class, code.getClass().getEnclosingClass(), "a plan this small is generated");
            ParseResult r = new ParseResult(g);
            for (int packet = 0; packet < 20; packet++) {
                for (HeaderInstance h : headers) {
                    r.setValid(h.index(), false);
                }
                for (HeaderInstance h : headers) {
                    if (rnd.nextInt(3) == 0) {
                        r.setValid(h.index(), true);
                        for (int f = 0; f < h.type().fields().size(); f++) {
                            FieldRef ref = g.field(h.name() + "." + h.type().fields().get(f).name());
                            for (int w = 0; w < ref.words(); w++) {
                                r.setWord(ref, w, rnd.nextLong());
                            }
                        }
                    }
                }
                long[] expected = new long[64];
                long[] actual = new long[64];
                long fill = rnd.nextLong();
                java.util.Arrays.fill(expected, fill);
                java.util.Arrays.fill(actual, fill);
                PhvLoadCode.interpreted(plan, r, expected);
                code.load(r, actual);
                assertArrayEquals(expected, actual, "trial " + trial + " packet " + packet);
            }
        }
    }

    @Test
    void aFieldTakesItsFirstValidAlternativeAndZeroWhenNoneIs() {
        ParseGraph g = DefaultParseGraph.build();
        FieldRef tcp = g.field("tcp.src_port");
        FieldRef udp = g.field("udp.src_port");
        int tcpH = g.header("tcp").index();
        int udpH = g.header("udp").index();
        // slot 3: tcp.src_port | udp.src_port (low byte of each); slot 5: udp's validity
        PhvLoadCode.Plan plan = new PhvLoadCode.Plan(new int[] {3}, new int[] {0, 2}, new int[] {tcpH, udpH},
                new int[] {tcp.word(), udp.word()}, new int[] {0, 0}, new long[] {0xFF, 0xFF},
                new int[] {5}, new int[] {udpH});
        PhvLoadCode code = PhvLoadCode.of(plan);
        ParseResult r = new ParseResult(g);
        long[] phv = new long[8];
        java.util.Arrays.fill(phv, -1);
        code.load(r, phv);
        assertEquals(0, phv[3]);
        assertEquals(0, phv[5]);
        r.setValid(udpH, true);
        r.setWord(udp, 0, 0x1234);
        code.load(r, phv);
        assertEquals(0x34, phv[3]);
        assertEquals(1, phv[5]);
        r.setValid(tcpH, true);
        r.setWord(tcp, 0, 0xABCD);
        code.load(r, phv);
        assertEquals(0xCD, phv[3]);
        assertEquals(-1, phv[4], "a slot the plan does not name is left alone");
    }

    @Test
    void aPlanTooLongToCompileIsWalkedAsData() {
        // 400 fields of about 25 bytecode bytes each exceed HotSpot's 8,000-byte compile limit
        ParseGraph g = DefaultParseGraph.build();
        FieldRef src = g.field("ipv4.src_addr");
        int ipv4 = g.header("ipv4").index();
        int n = 400;
        int[] slots = new int[n];
        int[] first = new int[n + 1];
        int[] headers = new int[n];
        int[] words = new int[n];
        int[] shifts = new int[n];
        long[] masks = new long[n];
        for (int i = 0; i < n; i++) {
            slots[i] = i;
            first[i] = i;
            headers[i] = ipv4;
            words[i] = src.word();
            shifts[i] = i % 32;
            masks[i] = 0xFF;
        }
        first[n] = n;
        PhvLoadCode.Plan plan = new PhvLoadCode.Plan(slots, first, headers, words, shifts, masks, new int[0], new int[0]);
        PhvLoadCode code = PhvLoadCode.of(plan);
        assertEquals(PhvLoadCode.class, code.getClass().getEnclosingClass(), "the plan walked as data");
        ParseResult r = new ParseResult(g);
        r.setValid(ipv4, true);
        r.setWord(src, 0, 0xC0A80A01L);
        long[] phv = new long[n];
        code.load(r, phv);
        assertEquals(0x01, phv[0]);
        assertEquals(0x0A, phv[8]);
        assertEquals(0xC0, phv[24]);
        assertEquals(0x60, phv[25], "0xC0A80A01 >>> 25 & 0xFF");
    }

    private static PhvLoadCode.Plan randomPlan(ParseGraph g, Random rnd) {
        List<FieldRef> refs = new ArrayList<>();
        for (HeaderInstance h : g.headers()) {
            for (var f : h.type().fields()) {
                refs.add(g.field(h.name() + "." + f.name()));
            }
        }
        int fields = rnd.nextInt(12);
        int valids = rnd.nextInt(6);
        int[] slots = new int[fields];
        int[] first = new int[fields + 1];
        List<int[]> alts = new ArrayList<>();
        List<Long> masks = new ArrayList<>();
        int slot = 0;
        for (int i = 0; i < fields; i++) {
            slots[i] = slot++;
            first[i] = alts.size();
            int n = 1 + rnd.nextInt(3);
            for (int a = 0; a < n; a++) {
                FieldRef r = refs.get(rnd.nextInt(refs.size()));
                int shift = rnd.nextInt(4) == 0 ? rnd.nextInt(40) : 0;
                int bits = 1 + rnd.nextInt(64);
                masks.add(bits == 64 ? -1L : (1L << bits) - 1);
                alts.add(new int[] {r.header(), r.word() + rnd.nextInt(r.words()), shift});
            }
        }
        first[fields] = alts.size();
        int[] headers = new int[alts.size()];
        int[] words = new int[alts.size()];
        int[] shifts = new int[alts.size()];
        long[] m = new long[alts.size()];
        for (int a = 0; a < alts.size(); a++) {
            headers[a] = alts.get(a)[0];
            words[a] = alts.get(a)[1];
            shifts[a] = alts.get(a)[2];
            m[a] = masks.get(a);
        }
        int[] validSlots = new int[valids];
        int[] validHeaders = new int[valids];
        for (int i = 0; i < valids; i++) {
            validSlots[i] = slot++;
            validHeaders[i] = rnd.nextInt(g.headers().size());
        }
        return new PhvLoadCode.Plan(slots, first, headers, words, shifts, m, validSlots, validHeaders);
    }
}
