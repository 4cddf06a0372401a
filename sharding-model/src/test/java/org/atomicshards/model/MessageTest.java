package org.atomicshards.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MessageTest {

    /** A word, then blanks, then the same word again (any case), each a whole word. */
    private static final Pattern DOUBLED_WORD =
            Pattern.compile("\\b(\\p{L}+)\\s+\\1\\b", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    @Test
    void codesAreUniqueAndAscending() {
        List<String> codes = Arrays.stream(Message.values()).map(Message::code).toList();

        assertThat(codes).doesNotHaveDuplicates().isSorted().allMatch(code -> code.matches("SHARD-\\d{3}"));
    }

    @ParameterizedTest
    @EnumSource(Message.class)
    void formattedMessagesStartWithTheirCode(Message message) {
        Object[] args = new Object[20];
        Arrays.fill(args, "X");
        String text = message.format(Arrays.stream(args).map(arg -> message.template().contains("%d") ? null : arg).toArray());

        assertThat(text).startsWith("[" + message.code() + "] ");
    }

    /**
     * No message says a word twice in a row ("the the", "its id id"), neither in its own text nor where an argument
     * meets it. Every text placeholder gets {@code id}: the rules pass bare attribute names as well as qualified ones,
     * and {@code id} is the commonest (SHARD-015 and SHARD-023 name the id attribute).
     */
    @ParameterizedTest
    @EnumSource(Message.class)
    void noMessageDoublesAWord(Message message) {
        Object[] args = Pattern.compile("%[sd]").matcher(message.template()).results()
                .map(specifier -> specifier.group().equals("%d") ? (Object) 2 : "id").toArray();

        String text = message.format(args);

        Matcher doubled = DOUBLED_WORD.matcher(text);
        assertThat(doubled.find() ? doubled.group() : null).as("a doubled word in %s", text).isNull();
    }

    @Test
    void theDoubledWordCheckFindsWordsRepeatedInAnyCaseButNotPartsOfWords() {
        assertThat(DOUBLED_WORD.matcher("generates its id id with IDENTITY").find()).isTrue();
        assertThat(DOUBLED_WORD.matcher("The the rule").find()).isTrue();
        assertThat(DOUBLED_WORD.matcher("the theme, an id identity").find()).isFalse();
    }
}
