def freeze(model):
    for p in model.backbone.parameters():
        p.require_grad = False  # want "VK010 p.require_grad is not an autograd attribute"
    model.head.weight.requires_grads = True  # want "VK010"


def clean(model):
    for p in model.backbone.parameters():
        p.requires_grad = False
    model.requires_grad_(False)
    require_grad = False
    x = p.require_grad
