"""Bank statistics and duplicate detection."""

from __future__ import annotations

from mindtable.trivia import Question, bank_stats, find_duplicates


def q(qid: str, prompt: str, answer: str = "X", **fields: object) -> Question:
    return Question(id=qid, kind="text", prompt=prompt, answer=answer, **fields)  # type: ignore[arg-type]


def test_counts_per_category_language_kind_and_difficulty() -> None:
    questions = [
        q("a", "One?", category="sport", language="es", difficulty="easy"),
        q("b", "Two?", category="sport", language="es"),
        Question(id="c", kind="truefalse", prompt="Three.", answer="true", category="arts", language="et"),
    ]
    stats = bank_stats(questions)
    assert stats.total == 3
    assert stats.by_category == {"sport": 2, "arts": 1}
    assert stats.by_language == {"es": 2, "et": 1}
    assert stats.by_kind == {"text": 2, "truefalse": 1}
    assert stats.by_difficulty == {"easy": 1, "-": 2}


def test_exact_and_near_duplicates() -> None:
    questions = [
        q("a", "What is the capital of Peru?", "LIMA"),
        q("b", "what is the capital of Peru", "Lima"),
        q("c", "What is the capital city of Peru?", "Lima"),
        q("d", "What is the capital of Chile?", "Santiago"),
        q("e", "What is the capital of Peru?", "Lima", language="es"),
    ]
    found = {(d.first.id, d.second.id): d for d in find_duplicates(questions)}
    assert found[("a", "b")].exact
    assert not found[("a", "c")].exact and found[("a", "c")].score >= 88
    assert ("a", "d") not in found  # similar wording, different answer
    assert not any("e" in pair for pair in found)  # other language


def test_many_questions_are_compared_in_chunks() -> None:
    questions = [q(f"q{i}", f"Question number {i} about topic {i * 7919 % 1000}", str(i)) for i in range(1200)]
    questions.append(q("dup", "Question number 5 about topic 595", "5"))
    pairs = {(d.first.id, d.second.id) for d in find_duplicates(questions)}
    assert ("q5", "dup") in pairs


def test_comparison_cards_sharing_a_prompt_are_not_duplicates_unless_they_compare_the_same_two() -> None:
    """Caída Libre's More or Less: "Which happened first?" asks nothing until its two options are read."""

    def higher(qid: str, prompt: str, options: tuple[str, str], correct: int) -> Question:
        return Question(id=qid, kind="higher", prompt=prompt, options=options, correct=correct)

    questions = [
        higher("a", "Which happened first?", ("the Battle of Hastings", "the Battle of Lepanto"), 0),
        higher("b", "Which happened first?", ("the launch of Sputnik", "the first Moon landing"), 0),
        higher("c", "Which happened first?", ("the Battle of Lepanto", "the Battle of Hastings"), 1),
    ]
    pairs = {(d.first.id, d.second.id) for d in find_duplicates(questions)}
    assert pairs == {("a", "c")}


def test_prompts_that_differ_in_a_number_ask_two_things() -> None:
    questions = [
        q("a", "Whose portrait was on the Estonian 100-kroon banknote?", "Lydia KOIDULA"),
        q("b", "Whose portrait was on the Estonian 500-kroon banknote?", "Carl Robert JAKOBSON"),
        q("c", "What is Estonia's largest island by area?", "SAAREMAA"),
        q("d", "What is Estonia's second-largest island by area?", "HIIUMAA"),
        q("e", "Whose portrait appeared on the Estonian 100-kroon banknote?", "Lydia KOIDULA"),
    ]
    pairs = {(d.first.id, d.second.id) for d in find_duplicates(questions)}
    assert pairs == {("a", "e")}


def test_a_shortened_rewording_with_the_same_answer_is_a_near_duplicate() -> None:
    questions = [
        q("a", "How many interlocking rings are there on the Olympic flag?", "FIVE (5)"),
        q("b", "How many rings are there on the Olympic flag?", "five (5)"),
        q("c", "How many rings does a tree grow in a year?", "one (1)"),
        q("d", "How many players from each team are on the court in a handball match?", "SEVEN"),
        q("e", "How many players from each team are in the water in a water polo match?", "SEVEN"),
    ]
    pairs = {(d.first.id, d.second.id) for d in find_duplicates(questions)}
    assert pairs == {("a", "b")}


def tf(qid: str, statement: str, truth: bool, note: str = "", **fields: object) -> Question:
    return Question(id=qid, kind="truefalse", prompt=statement, answer=str(truth).lower(), note=note, **fields)  # type: ignore[arg-type]


#: other questions, so that words weigh as in a real bank (a word many questions use counts for little)
BACKGROUND = [
    q("bg1", "Which painter painted the ceiling of the Sistine Chapel?", "MICHELANGELO"),
    q("bg2", "Which composer wrote the opera Carmen?", "Georges BIZET"),
    q("bg3", "In which city was Mozart born?", "SALZBURG"),
    q("bg4", "In which country is the city of Kyoto?", "JAPAN"),
    q("bg5", "Which country won the first football World Cup?", "URUGUAY"),
    q("bg6", "In which year did the First World War end?", "1918"),
    q("bg7", "Which Japanese city is known for its deer park?", "NARA"),
    q("bg8", "Which war ended in 1945?", "the SECOND WORLD WAR"),
]


def test_a_statement_saying_the_fact_a_question_asks_is_a_repeat() -> None:
    """A true statement with the answer in it (a plural for the answer's singular too); a false one with a wrong
    name or number where the answer belongs and the true answer in its note; in Spanish as in English."""
    questions = [
        *BACKGROUND,
        q("vivaldi", "Which Venetian composer wrote 'The Four Seasons'?", "Antonio VIVALDI"),
        tf("s-vivaldi", "The Four Seasons is by Antonio Vivaldi.", True),
        q("hiroshima", "On which Japanese city was the first atomic bomb used in war dropped, in 1945?", "HIROSHIMA"),
        tf(
            "s-nagasaki",
            "The first atomic bomb used in war was dropped on Nagasaki.",
            False,
            note="False: on Hiroshima, on 6 August 1945; the second fell on Nagasaki three days later.",
        ),
        q("chambers", "How many chambers does the human heart have?", "FOUR (4)"),
        tf(
            "s-chambers",
            "The human heart has three chambers.",
            False,
            note="False: it has four, two atria and two ventricles.",
        ),
        q("bat", "Which is the only mammal capable of true flight?", "the BAT"),
        tf("s-bats", "Bats are the only mammals capable of true flight.", True),
        tf("s-pulpo", "El pulpo tiene tres corazones.", True, language="es"),
        q("pulpo", "¿Cuántos corazones tiene un pulpo?", "TRES (3)", language="es"),
    ]
    pairs = {(d.first.id, d.second.id) for d in find_duplicates(questions)}
    assert {
        ("vivaldi", "s-vivaldi"),
        ("hiroshima", "s-nagasaki"),
        ("chambers", "s-chambers"),
        ("bat", "s-bats"),
        ("s-pulpo", "pulpo"),
    } <= pairs
    assert all(d.score >= 80 and not d.exact for d in find_duplicates(questions) if d.first.kind != d.second.kind)


def test_a_statement_on_a_neighbouring_fact_is_not_a_repeat() -> None:
    """The same subject, another fact: the answer is not what the statement says ("Frida Kahlo was Mexican" /
    whom she married), the statement says more than the question asks (paper money / paper), a false statement
    whose note names the answer but whose words ask something else, a comparison of other things, another
    language."""
    questions = [
        *BACKGROUND,
        q("rivera", "Which Mexican muralist was Frida Kahlo married to?", "Diego RIVERA"),
        tf(
            "s-kahlo",
            "Frida Kahlo was Mexican.",
            True,
            note="True: she was born in Coyoacán, and married Diego Rivera.",
        ),
        q("paper", "In which country was paper invented?", "CHINA"),
        tf("s-money", "Paper money was first printed in China.", True),
        q("seine", "Which river flows through Paris?", "the SEINE"),
        tf("s-thames", "The Thames is longer than the Seine.", False, note="False: the Seine is longer."),
        Question(
            id="balls",
            kind="higher",
            prompt="Which ball is bigger?",
            options=("a golf ball", "a table-tennis ball"),
            correct=0,
        ),
        tf("s-balls", "A golf ball is bigger than a tennis ball.", False),
        q("octopus", "How many hearts does an octopus have?", "THREE (3)"),
        tf("s-pulpo", "El pulpo tiene tres corazones.", True, language="es"),
    ]
    assert [(d.first.id, d.second.id) for d in find_duplicates(questions)] == []
