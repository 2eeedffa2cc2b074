"""From a service update to messages: what players see (:mod:`.look`, :mod:`.league_look`, the components of
:mod:`.components` with their custom ids in :mod:`.ids`), the table messages (:mod:`.presenter`), each person's DM
(:mod:`.dms`, deciding with :mod:`.dm_plan`), bringing a message up to date (:mod:`.throttle`), the images
(:mod:`.drawing`) and the weekly standings posts (:mod:`.poster`)."""
