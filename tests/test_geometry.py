"""The snub dodecahedron and the Globetrotter boards, against the rulebook and audit.md Part 1."""

from itertools import combinations

import networkx as nx
import pytest

from rulecheck.geometry.facts import automorphism_count, board_facts, solid_facts
from rulecheck.geometry.planet import (
    HQ,
    REMOVALS,
    REMOVED_PENTAGON,
    corner_class,
    labelled_faces,
    planet,
    removed_faces,
)
from rulecheck.geometry.rotations import dot, icosahedral_rotations, norm, sub
from rulecheck.geometry.snub import snub_dodecahedron


@pytest.fixture(scope="module")
def solid():
    return snub_dodecahedron()


@pytest.fixture(scope="module")
def faces():
    return labelled_faces()[1]


def test_rotation_group_is_closed_and_orthogonal():
    group = icosahedral_rotations()
    assert len(group) == 60
    for m in group:
        for i in range(3):
            assert abs(dot(m[i], m[i]) - 1) < 1e-9
            for j in range(i + 1, 3):
                assert abs(dot(m[i], m[j])) < 1e-9


def test_solid_counts_and_euler_characteristic(solid):
    facts = solid_facts(solid)
    assert facts["vertices"] == 60
    assert facts["edges"] == 150
    assert facts["faces"] == 92
    assert facts["faces_by_sides"] == {"3": 80, "5": 12}
    assert facts["euler_characteristic"] == 2


def test_every_edge_has_the_same_length_and_every_vertex_is_3_3_3_3_5(solid):
    lengths = [norm(sub(solid.vertices[i], solid.vertices[j])) for i, j in map(sorted, solid.edges)]
    assert max(lengths) - min(lengths) < 1e-9
    for v in range(len(solid.vertices)):
        around = sorted(len(f) for f in solid.faces if v in f)
        assert around == [3, 3, 3, 3, 5]


def test_face_graph_degrees_and_pentagons(faces):
    assert faces.number_of_nodes() == 92
    assert faces.number_of_edges() == 150
    for face in faces:
        expected = 5 if faces.nodes[face]["kind"] == HQ else 3
        assert faces.degree(face) == expected
    pentagons = [f for f in faces if faces.nodes[f]["kind"] == HQ]
    assert len(pentagons) == 12
    assert not any(faces.has_edge(a, b) for a, b in combinations(pentagons, 2))


def test_around_each_pentagon_5_triangles_share_an_edge_and_15_a_corner(solid):
    corner_sets = [frozenset(f) for f in solid.faces]
    for pentagon in (c for c in corner_sets if len(c) == 5):
        triangles = [c for c in corner_sets if len(c) == 3]
        assert sum(len(t & pentagon) == 2 for t in triangles) == 5
        assert sum(len(t & pentagon) >= 1 for t in triangles) == 15


def test_face_graph_has_60_automorphisms(faces):
    assert automorphism_count(nx.Graph(faces)) == 60


def test_ring15_board_matches_audit():
    facts = board_facts(planet("ring15"))
    assert (facts["spaces"], facts["hq_spaces"], facts["triangle_spaces"]) == (76, 11, 65)
    assert facts["adjacencies"] == 120
    assert facts["connected"] is True
    assert facts["diameter"] == 10
    assert facts["hq_neighbour_counts"] == {"4": 5, "5": 6}
    assert facts["hq_distance_pairs"] == {"3": 25, "6": 25, "9": 5}
    assert sum(facts["hq_distance_pairs"].values()) == 55
    assert facts["automorphisms"] == 5


def test_edge5_board_keeps_every_hq_at_5_neighbours():
    facts = board_facts(planet("edge5"))
    assert facts["spaces"] == 86
    assert facts["hq_neighbour_counts"] == {"5": 11}


@pytest.mark.parametrize(
    ("removal", "isolated", "dangling", "automorphisms"),
    [("ring14-edge", 1, 0, 5), ("ring14-hq", 0, 1, 1), ("ring14-snub", 0, 1, 1)],
)
def test_fourteen_triangle_boards_leave_an_isolated_or_dangling_triangle(removal, isolated, dangling, automorphisms):
    facts = board_facts(planet(removal))
    assert facts["spaces"] == 77
    assert facts["triangle_spaces"] == 66
    assert len(facts["isolated_spaces"]) == isolated
    assert len(facts["dangling_spaces"]) == dangling
    assert facts["automorphisms"] == automorphisms
    assert facts["connected"] is (isolated == 0)


def test_ring14_hq_gives_one_near_hq_its_fifth_neighbour_back():
    facts = board_facts(planet("ring14-hq"))
    assert facts["hq_neighbour_counts"] == {"4": 4, "5": 7}


def test_removals_are_the_pentagon_and_a_multiple_of_five_or_fourteen_triangles():
    sizes = {name: len(removed_faces(name)) - 1 for name in REMOVALS}
    assert sizes == {"ring15": 15, "edge5": 5, "ring14-edge": 14, "ring14-hq": 14, "ring14-snub": 14}


def test_unknown_removal_lists_the_allowed_ones():
    with pytest.raises(ValueError, match="ring15, edge5"):
        removed_faces("ring13")


# The labelling rule (docs/board.md), pinned.


def test_labels_number_each_kind_by_ring_from_far_to_near_then_azimuth(faces):
    for prefix in "PT":
        labels = sorted((f for f in faces if f[0] == prefix), key=lambda f: int(f[1:]))
        keys = [(-faces.nodes[f]["ring"], faces.nodes[f]["azimuth"]) for f in labels]
        assert keys == sorted(keys)
        assert len(set(keys)) == len(keys)


def test_pinned_labels(faces):
    rings = {f: faces.nodes[f]["ring"] for f in faces}
    assert rings["P0"] == 9  # the top HQ, opposite the removed pentagon
    assert rings[REMOVED_PENTAGON] == 0
    assert sorted(faces[REMOVED_PENTAGON]) == ["T75", "T76", "T77", "T78", "T79"]
    assert faces.nodes["T75"]["azimuth"] == 0.0  # the reference face
    assert [faces.nodes[f"T{75 + k}"]["azimuth"] for k in range(5)] == [0.0, 72.0, 144.0, 216.0, 288.0]
    assert sorted(faces["P0"]) == ["T1", "T3", "T5", "T7", "T9"]
    assert [rings[f"P{k}"] for k in range(12)] == [9] + [6] * 5 + [3] * 5 + [0]


def test_positive_sense_follows_each_edge_triangle_with_the_hq_corner_triangle(faces):
    ring = sorted((f for f in faces if corner_class(faces, f)), key=lambda f: faces.nodes[f]["azimuth"])
    classes = [corner_class(faces, f) for f in ring]
    assert classes == ["edge", "hq", "snub"] * 5
    assert [corner_class(faces, f) for f in ("T65", "T66", "T75")] == ["hq", "snub", "edge"]
