from training.common.union_find import smallest_members


def test_groups_sharing_an_id_merge_and_are_named_by_their_smallest_id():
    assert smallest_members([["c", "b"], ["d", "c"], ["x"], ["z", "y"], []]) == {
        "b": "b", "c": "b", "d": "b", "x": "x", "y": "y", "z": "y"}


def test_the_order_of_the_groups_does_not_change_the_names():
    groups = [["p3", "p2"], ["p1", "p3"], ["q2", "q1"]]
    assert smallest_members(groups) == smallest_members(list(reversed(groups)))
