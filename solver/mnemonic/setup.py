"""New Mnemonic sessions: characters made from the rule data (or entered by the players) and the deck dealt or
shuffled."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from solver.errors import InvalidInputError
from solver.lazynp import np
from solver.mnemonic.cards import DECK_SIZE, SUIT_LETTERS, SUITS, card_class
from solver.mnemonic.parts import MODES, Player, Skill
from solver.mnemonic.rules_file import MnemonicRules
from solver.mnemonic.state import MnemonicState

if TYPE_CHECKING:
    from solver.mnemonic.game import MnemonicGame


def new_character(rules: MnemonicRules, rng: np.random.Generator, name: str) -> Player:
    """A character with ``newCharacter.skillsPerSuit`` skills per suit, named from ``skillNames``,
    each rated uniformly in ``newCharacter.ratingMin..ratingMax`` (our invention, not the book's)."""
    skills = []
    for suit in range(4):
        for k in range(rules["newCharacter.skillsPerSuit"]):
            rating = int(rng.integers(rules["newCharacter.ratingMin"], rules["newCharacter.ratingMax"] + 1))
            skills.append(Skill(rules.skill_names[SUITS[suit]][k], suit, rating))
    return Player(name, skills, [], rules["weaving.perPlayer"], 0)


_SKILL_ITEM = re.compile(r"([HDCS])(\d{1,2})")
#: a character with no entered skills: the rule data's character (as with nothing entered)
UNENTERED = "-"


def entered_characters(text: str, rules: MnemonicRules, field: str = "game.skills") -> list[list[Skill] | None]:
    """The characters the players entered (MN-48): ``/`` between players in seat order, each a list of skills as
    a suit letter and a rating (``H3D2C2S1``; spaces allowed), or ``-`` for the rule data's character. A
    character's k-th skill of a suit takes the k-th name of ``skillNames.<suit>``; ratings lie within
    ``skills.minRating..maxRating`` and a character holds at most ``skills.maxPerCharacter`` skills."""
    if not text.strip():
        return []
    characters: list[list[Skill] | None] = []
    for i, part in enumerate(text.split("/")):
        words = part.replace(" ", "")
        if words == UNENTERED:
            characters.append(None)
            continue
        where = f"{field}[{i}]"
        if not words or re.fullmatch(f"(?:{_SKILL_ITEM.pattern})+", words, flags=re.IGNORECASE) is None:
            raise InvalidInputError(where, part, "expected skills as a suit letter and a rating, e.g. H3D2C2S1 "
                                                 "(H hearts, D diamonds, C clubs, S spades), or - for the rule "
                                                 "data's character")
        skills: list[Skill] = []
        for letter, digits in _SKILL_ITEM.findall(words.upper()):
            suit = SUIT_LETTERS.index(letter)
            rating = int(digits)
            lo, hi = rules["skills.minRating"], rules["skills.maxRating"]
            if not lo <= rating <= hi:
                raise InvalidInputError(where, f"{letter}{digits}", f"a rating lies between {lo} and {hi} "
                                                                    "(rules skills.minRating, skills.maxRating)")
            names = rules.skill_names[SUITS[suit]]
            held = sum(1 for s in skills if s.suit == suit)
            if held >= len(names):
                raise InvalidInputError(where, part, f"at most {len(names)} {SUITS[suit]} skills (the names of "
                                                     f"rules skillNames.{SUITS[suit]})")
            skills.append(Skill(names[held], suit, rating))
        if len(skills) > rules["skills.maxPerCharacter"]:
            raise InvalidInputError(where, part, f"a character holds at most {rules['skills.maxPerCharacter']} "
                                                 "skills (rules skills.maxPerCharacter)")
        characters.append(skills)
    return characters


def deal(state: MnemonicState, rng: np.random.Generator) -> None:
    """Into the Grey: face cards, then numbers, then jokers, each pile shuffled and dealt round the table,
    the deal continuing with the next player (MN-9). Deck Burner: shuffle, deal ``deckBurner.handSize`` each
    (MN-10); the rest is the deck."""
    n = state.n
    if state.mode == "into-the-grey":
        order: list[int] = []
        for cls in range(3):
            pile = [c for c in range(DECK_SIZE) if card_class(c) == cls]
            rng.shuffle(pile)
            order += [int(c) for c in pile]
        for i, card in enumerate(order):
            state.players[i % n].hand.append(card)
        state.deck = []
    else:
        cards = [int(c) for c in rng.permutation(DECK_SIZE)]
        size = state.rules["deckBurner.handSize"]
        for i in range(size * n):
            state.players[i % n].hand.append(cards[i])
        state.deck = sorted(cards[size * n:])
    for p in state.players:
        p.hand.sort()


def seated(game: MnemonicGame, players: int, mode: str, seed: int,
           rules: MnemonicRules | None = None) -> tuple[MnemonicState, np.random.Generator]:
    """A session of ``players`` characters, nothing dealt, and the generator that made them (the deal draws from
    it next): the characters the players entered (the game's ``skills``, MN-48), the others made with ``seed``
    (drawn for every seat, so that entering skills changes nothing else of the session)."""
    if mode not in MODES:
        raise InvalidInputError("mode", mode, f"expected one of {', '.join(MODES)}")
    rules = rules or game.rules
    rng = np.random.default_rng(seed)
    roster = [new_character(rules, rng, f"Player {i + 1}") for i in range(players)]
    entered = entered_characters(game.params.get("skills", ""), rules)
    if len(entered) > players:
        raise InvalidInputError("game.skills", game.params["skills"], f"{len(entered)} characters for {players} "
                                                                      "players")
    for seat, skills in enumerate(entered):
        if skills is not None:
            roster[seat].skills = skills
    return MnemonicState(game, rules, mode, roster), rng


def new_session(game: MnemonicGame, players: int, mode: str, seed: int, rules: MnemonicRules | None = None) -> MnemonicState:
    """A session at its first Individual Scene, fully determined by ``seed``."""
    state, rng = seated(game, players, mode, seed, rules)
    deal(state, rng)
    state._begin_scene(0)
    return state


def new_table_state(game: MnemonicGame, players: int, mode: str, seed: int = 0) -> MnemonicState:
    """A session before its deal (MN-42): the same characters as ``new_session(seed)``, every card in the deck,
    dealt one at a time as chance outcomes (``draw 7H``); a Deck Burner session without hands starts at once."""
    state, _ = seated(game, players, mode, seed)
    state.deck = list(range(DECK_SIZE))
    state.phase = "deal"
    state._after_deal_card()
    return state
